// Requests that fail before Hearth's handlers run, over a raw socket: every answer Hearth can still write
// is the error body with X-Request-Id; slow bodies and headers are cut off; a client leaving mid-body is not
// a server error.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { attachContract } from '../helpers/contract.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';
import { seedCommunity } from '../helpers/seed.js';

let testStore: TestStore;
let app: FastifyInstance;
let port: number;
let token: string;
const logs: { level: number; msg: string; request_id?: string }[] = [];

beforeAll(async () => {
  testStore = await createTestStore();
  const { store } = testStore;
  ({ token } = await seedCommunity(store, 'raw', { name: 'Raw', scopes: ['read', 'members:write'] }));
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig(
    {},
    { databaseUrl: testStore.url, bodyTimeoutMs: 1000, authFailuresPerSecond: 10_000, rateLimitPerSecond: 10_000 },
  );
  app = await buildApp(config, { store, logger: { level: 'info', stream } });
  attachContract(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await app.close();
  await testStore.cleanup();
});

/** The answer is the error body, its id in X-Request-Id, and the socket closed behind it. */
function expectErrorBody(answer: RawAnswer, status: number, code: string, error: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const requestId = answer.headers['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
  expect(JSON.parse(answer.body)).toEqual({ success: false, error, code, request_id: requestId });
  expect(answer.closedAfterMs).not.toBeNull();
}

describe('requests Node cannot parse', () => {
  it('answers a malformed request line with the error body', async () => {
    expectErrorBody(await rawRequest(port, ['GARBAGE\r\n\r\n']), 400, 'bad_request', 'The request is not valid HTTP.');
  });

  it('answers bad header bytes with the error body', async () => {
    expectErrorBody(
      await rawRequest(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']),
      400,
      'bad_request',
      'The request is not valid HTTP.',
    );
    expectErrorBody(
      await rawRequest(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n']),
      400,
      'bad_request',
      'The request is not valid HTTP.',
    );
  });

  it('answers headers over the limit with 431 and the error body', async () => {
    const answer = await rawRequest(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expectErrorBody(answer, 431, 'headers_too_large', 'The request headers are too large.');
  });

  it('answers an Expect other than 100-continue with 417 and the error body', async () => {
    const answer = await rawRequest(port, ['GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: garbage\r\n\r\n']);
    expectErrorBody(answer, 417, 'expectation_failed', "The only expectation served is 'Expect: 100-continue'.");
  });

  it('answers an HTTP/1.1 request without Host with 400 and the error body; HTTP/1.0 needs none', async () => {
    const answer = await rawRequest(port, [
      `GET /admin/v0/calendar_events HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    ]);
    expectErrorBody(answer, 400, 'bad_request', 'An HTTP/1.1 request needs a Host header.');
    expect(answer.headers['ratelimit-limit']).toBe('10000');
    const old = await rawRequest(port, ['GET /healthz HTTP/1.0\r\n\r\n']);
    expect([old.status, old.body]).toEqual([200, '{"status":"ok"}']);
  });

  it('answers bad percent-encoding in the path with the error body and X-Request-Id', async () => {
    const answer = await rawRequest(port, [
      `GET /admin/v0/posts/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    ]);
    expectErrorBody(answer, 400, 'invalid_parameter', 'The request path is not validly percent-encoded.');
    expect(answer.headers['ratelimit-remaining']).toMatch(/^99\d\d$/);
  });
});

describe('slow clients', () => {
  const postHead = (length: number) =>
    `POST /admin/v0/members HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers a body sent a byte at a time with 408 once the body deadline passes, and closes the connection', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', full_name: 'Slow Loris' });
    const answer = await rawRequest(port, [postHead(body.length), ...body.split('')], { gapMs: 100, timeoutMs: 8000 });
    expectErrorBody(answer, 408, 'request_timeout', 'The request body did not arrive within 1000 ms.');
    expect(answer.headers['connection']).toBe('close');
    // Cut off at the deadline (1 s), not after the whole body (5 s).
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(950);
    expect(answer.closedAfterMs).toBeLessThan(2500);
    const stored = await testStore.store.db
      .selectFrom('profiles')
      .select('id')
      .where('email_key', '=', 'slow@example.com')
      .execute();
    expect(stored).toEqual([]);
  });

  it('answers headers sent a line at a time with 408 and closes the connection', async () => {
    const lines = [
      'GET /healthz HTTP/1.1\r\n',
      'Host: x\r\n',
      ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: 1\r\n`),
      '\r\n',
    ];
    const answer = await rawRequest(port, lines, { gapMs: 200, timeoutMs: 8000 });
    expectErrorBody(answer, 408, 'request_timeout', 'The request did not arrive in time.');
    expect(answer.closedAfterMs).toBeLessThan(3500);
  });

  it('closes the connection after refusing a request whose body is still coming', async () => {
    const answer = await rawRequest(port, [postHead(100).replace(token, 'hth_wrong'), '{"email":'], {
      timeoutMs: 3000,
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['connection']).toBe('close');
    expect(answer.closedAfterMs).toBeLessThan(2000);
    // One answer only: nothing written after it.
    expect(answer.text.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('leaves no deadline behind for a body that was never read (a 415)', async () => {
    const head = postHead(5).replace('application/json', 'text/xml');
    const answer = await rawRequest(port, [`${head}<a/>!`], { timeoutMs: 3000 });
    expect(answer.status).toBe(415);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // The deadline would have fired by now; the process is still serving (an unhandled stream error would have ended it).
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('does not log a client leaving mid-body as a server error', async () => {
    const before = logs.length;
    for (let i = 0; i < 3; i++) {
      await rawRequest(port, [postHead(100), '{"email":"gone'], { abortAfterMs: 100 });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = logs.slice(before);
    expect(
      lines.filter((l) => l.msg === 'client went away before its request was complete').map((l) => l.level),
    ).toEqual([30, 30, 30]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('the whole file', () => {
  it('logged nothing at error level', () => {
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});
