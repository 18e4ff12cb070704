// The contract check itself: it catches answers that break the document, the document's examples keep it, and coverage is counted per pair.
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOpenApi } from '../../src/openapi/openapi.js';
import {
  attachContract,
  contractFor,
  newContractLog,
  takeViolations,
  type Contract,
  type OpenApiDocument,
} from '../helpers/contract.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { coverageReport } from '../setup/contract-coverage.js';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  'x-required-scopes'?: string[];
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
}

let t: TestApp;
let document: OpenApiDocument;
let contract: Contract;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp();
  document = t.app.swagger() as OpenApiDocument;
  contract = contractFor(document);
  operations = Object.values((document as { paths: Record<string, Record<string, Operation>> }).paths).flatMap((item) =>
    Object.values(item),
  );
});
afterAll(() => t.close());

const json = {
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': 'r1',
  'ratelimit-limit': '5',
  'ratelimit-remaining': '4',
  'ratelimit-reset': '1',
};

describe('the check of one answer', () => {
  it('names the field a body lacks', () => {
    const page = {
      page: 0,
      per_page: 10,
      count: 1,
      total_records: 1,
      total_pages: 1,
      has_next: false,
      records: [{ id: 'evdstcross01' }],
    };
    const problems = contract.check('listCalendarEvents', {
      status: 200,
      headers: { ...json, etag: '"x"' },
      body: JSON.stringify({ success: true, data: page }),
    });
    expect(problems).toContain("body/data/records/0 must have required property 'title'");
  });

  it('refuses a status the operation does not document', () => {
    expect(contract.check('getCalendarEvent', { status: 418, headers: json, body: '{}' })).toEqual([
      'status 418 is not documented for getCalendarEvent',
    ]);
  });

  it('refuses a missing required header, a wrong content type and a body on a 304', () => {
    const error = JSON.stringify({ success: false, error: 'Not found.', code: 'not_found', request_id: 'r1' });
    expect(
      contract.check('getPost', {
        status: 404,
        headers: { ...json, 'x-request-id': undefined, 'content-type': 'text/plain' },
        body: error,
      }),
    ).toEqual(['header X-Request-Id is missing', 'content-type is text/plain, not application/json']);
    expect(contract.check('getPost', { status: 304, headers: { ...json, etag: '"x"' }, body: '{}' })).toEqual([
      'status 304 has no body in the document, but one was sent',
    ]);
  });

  it('accepts an empty 304 with its headers', () => {
    expect(contract.check('getPost', { status: 304, headers: { ...json, etag: '"x"' }, body: '' })).toEqual([]);
  });
});

describe('the hook on an app', () => {
  it('records the answer that breaks the contract, and the setup fails the test that received it', async () => {
    const app = Fastify({ logger: false });
    await registerOpenApi(app);
    app.get('/admin/v0/teapot', { schema: { operationId: 'brewTea' } }, async (_request, reply) =>
      reply.code(418).send({ ok: false }),
    );
    const Boiled = Type.Object({ ok: Type.Boolean() });
    app.get('/admin/v0/kettle', { schema: { operationId: 'boilWater', response: { 200: Boiled } } }, async () => ({
      ok: true,
    }));
    // Its own log: this app is no part of the suite's coverage. The suite's apps use the shared log, whose
    // violations test/setup/contract.setup.ts throws after the test that received them.
    const log = newContractLog();
    attachContract(app, log);
    await app.ready();
    await app.inject({ method: 'GET', url: '/admin/v0/teapot' });
    await app.inject({ method: 'GET', url: '/admin/v0/kettle' });
    await app.close();
    expect(takeViolations(log)).toEqual([
      {
        operationId: 'brewTea',
        status: 418,
        url: '/admin/v0/teapot',
        problems: ['status 418 is not documented for brewTea'],
      },
      {
        operationId: 'boilWater',
        status: 200,
        url: '/admin/v0/kettle',
        // This bare app lacks what buildApp adds to every answer.
        problems: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'ETag'].map(
          (name) => `header ${name} is missing`,
        ),
      },
    ]);
    expect([...log.covered]).toEqual(['brewTea 418', 'boilWater 200']);
  });
});

describe('the document', () => {
  it('gives every admin operation the bearer scheme with the scope it needs, and its 401, 403 and 429', () => {
    expect(operations.length).toBeGreaterThanOrEqual(5);
    for (const operation of operations) {
      const scopes = operation['x-required-scopes'] ?? [];
      expect(scopes.length, operation.operationId).toBe(1);
      expect(operation.security, operation.operationId).toEqual([{ bearerAuth: scopes }]);
      expect(Object.keys(operation.responses), operation.operationId).toEqual(
        expect.arrayContaining(['401', '403', '429', '500', '503']),
      );
    }
  });

  it('has a captured example for every success, and every example keeps the schema of its status', () => {
    for (const operation of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const examples = Object.entries(response.content?.['application/json']?.examples ?? {});
        // A success that is no JSON (an iCalendar answer) is documented by its media type instead.
        const json = response.content?.['application/json'] !== undefined || response.content === undefined;
        if (status.startsWith('2') && json)
          expect(examples.length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
        for (const [name, { value }] of examples) {
          expect(
            contract.bodyProblems(operation.operationId, Number(status), value),
            `${operation.operationId} ${status} ${name}`,
          ).toEqual([]);
        }
      }
    }
  });
});

describe('the coverage report', () => {
  it('counts the documented pairs the suite answered, across test files', () => {
    const report = coverageReport([
      { documented: ['getPost 200', 'getPost 404', 'listFeedPosts 200'], covered: ['getPost 200'] },
      { documented: ['getPost 200', 'getPost 404', 'listFeedPosts 200'], covered: ['listFeedPosts 200'] },
    ]);
    expect(report.split('\n')).toEqual([
      'Contract coverage: 2 of 3 documented operation×status pairs answered and validated (✓ seen, · not seen)',
      '  getPost        200✓ 404·',
      '  listFeedPosts  200✓',
    ]);
  });
});
