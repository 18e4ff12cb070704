// Rate limits on every answer but the probes: failed authentication per address (before any hashing or
// database work), unknown paths and methods per token, the public pages per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { WindowCounter } from '../../src/http/window-counter.js';
import { localCounter } from '../../src/http/shared-counter.js';
import type { FastifyInstance } from 'fastify';
import { createTestStore, type TestStore } from '../helpers/test-store.js';
import { attachContract } from '../helpers/contract.js';
import { seedCommunity } from '../helpers/seed.js';

/** Counts the queries the app sends to the store. */
class QueryCounter implements KyselyPlugin {
  queries = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

let testStore: TestStore;
let app: FastifyInstance;
let token: string;
let freshToken: () => Promise<string>;
const counter = new QueryCounter();

beforeAll(async () => {
  testStore = await createTestStore();
  const { store } = testStore;
  const acme = await seedCommunity(store, 'acme', { name: 'Acme' });
  // Each test counts on a token of its own: windows outlive a test.
  freshToken = () => acme.newToken(['read']);
  token = acme.token;
  const counted = { ...store, db: store.db.withPlugin(counter) };
  app = await buildApp(
    loadConfig({}, { databaseUrl: testStore.url, rateLimitPerSecond: 5, authFailuresPerSecond: 3 }),
    // Windows that never end by themselves: a loaded machine cannot split a test's requests over two windows.
    { store: counted, logger: false, requestCounter: () => localCounter(1000, () => 0) },
  );
  attachContract(app);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await testStore.cleanup();
});

const headersOf = (res: { headers: Record<string, unknown> }) => [
  res.headers['ratelimit-limit'],
  res.headers['ratelimit-remaining'],
  res.headers['ratelimit-reset'],
];

const ask = (
  url: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'DELETE' = 'GET',
  remoteAddress = '10.0.0.1',
) => app.inject({ method, url, headers, remoteAddress });

describe('failed authentication, per client address', () => {
  it("answers 401 with the address's limit, then 429 before any token is looked up", async () => {
    const statuses: number[] = [];
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ask('/admin/v0/calendar_events', { authorization: `Bearer hth_random${i}` });
      statuses.push(res.statusCode);
      remaining.push(headersOf(res));
    }
    expect(statuses).toEqual([401, 401, 401]);
    expect(remaining).toEqual([
      ['3', '2', '1'],
      ['3', '1', '1'],
      ['3', '0', '1'],
    ]);

    const before = counter.queries;
    for (let i = 0; i < 20; i++) {
      const res = await ask('/admin/v0/calendar_events', {
        authorization: `Bearer hth_again${i}`,
        'x-request-id': 'req-gate',
      });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
      expect(headersOf(res)).toEqual(['3', '0', '1']);
      expect(res.json()).toEqual({
        success: false,
        error: 'Too many failed authentications from this address (at most 3 per second); retry in 1 second.',
        code: 'rate_limited',
        request_id: 'req-gate',
      });
    }
    // Not one token lookup: the gate answers before hashing or the database.
    expect(counter.queries).toBe(before);
    // A good token this process has not yet seen authenticate waits as well (no lookup is spent on it); another
    // address is not concerned. One already known goes on to its own limit (rate-limit-shared-address.test.ts).
    expect((await ask('/admin/v0/calendar_events', { authorization: `Bearer ${token}` })).statusCode).toBe(429);
    expect(
      (await ask('/admin/v0/calendar_events', { authorization: `Bearer ${token}` }, 'GET', '10.0.0.2')).statusCode,
    ).toBe(200);
  });

  it('counts a missing header as a failure too, and shows that limit', async () => {
    const res = await ask('/admin/v0/posts/abcdefabcdef', {}, 'GET', '10.0.0.3');
    expect(res.statusCode).toBe(401);
    expect(headersOf(res)).toEqual(['3', '2', '1']);
  });
});

describe('every admin answer carries RateLimit-* and counts against the caller', () => {
  it('counts 404 and 405 under /admin/v0 against the token, then answers 429', async () => {
    const auth = { authorization: `Bearer ${await freshToken()}` };
    const answers = [
      await ask('/admin/v0/nothing-here', auth, 'GET', '10.0.1.1'),
      await ask('/admin/v0/calendar_events', auth, 'DELETE', '10.0.1.1'),
      await ask('/admin/v0/calendar_events/zzzzzzzzzzzz', auth, 'GET', '10.0.1.1'),
      await ask('/admin/v0/calendar_events?per_page=0', auth, 'GET', '10.0.1.1'),
      await ask('/admin/v0/calendar_events', auth, 'GET', '10.0.1.1'),
      await ask('/admin/v0/nothing-here', auth, 'GET', '10.0.1.1'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([404, 405, 404, 400, 200, 429]);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
    expect(
      answers.every((r) => r.headers['ratelimit-limit'] === '5' && typeof r.headers['x-request-id'] === 'string'),
    ).toBe(true);
  });

  it('authenticates unknown paths and methods: without a token they are 401, not 404', async () => {
    const res = await ask('/admin/v0/nothing-here', { 'x-request-id': 'req-unknown' }, 'GET', '10.0.1.2');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      error: 'Missing or malformed Authorization header; expected "Bearer <token>".',
      code: 'unauthorized',
      request_id: 'req-unknown',
    });
    expect(headersOf(res)).toEqual(['3', '2', '1']);
  });

  it('counts a path refused before routing (bad percent-encoding), with X-Request-Id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/admin/v0/calendar_events/%E0%A4%A',
      headers: { authorization: `Bearer ${await freshToken()}`, 'x-request-id': 'req-bad-url' },
      remoteAddress: '10.0.1.3',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toBe('req-bad-url');
    expect(headersOf(res)).toEqual(['5', '4', '1']);
    expect(res.json()).toEqual({
      success: false,
      error: 'The request path is not validly percent-encoded.',
      code: 'invalid_parameter',
      request_id: 'req-bad-url',
    });
  });

  it('answers a path parameter over 100 characters with the error body and the headers', async () => {
    const res = await ask(
      `/admin/v0/posts/${'a'.repeat(101)}`,
      { authorization: `Bearer ${await freshToken()}`, 'x-request-id': 'req-long' },
      'GET',
      '10.0.1.4',
    );
    expect(res.statusCode).toBe(400);
    expect(headersOf(res)).toEqual(['5', '4', '1']);
    expect(res.json()).toEqual({
      success: false,
      error: 'A path parameter is longer than 100 characters.',
      code: 'invalid_parameter',
      request_id: 'req-long',
    });
  });
});

describe('public pages and probes', () => {
  it('limits the OpenAPI document and the docs page per address', async () => {
    const statuses: number[] = [];
    for (const url of [
      '/admin/v0/openapi.json',
      '/docs',
      '/docs/static/index.html',
      '/admin/v0/openapi.json',
      '/nowhere',
      '/admin/v0/openapi.json',
    ]) {
      const res = await ask(url, {}, 'GET', '10.0.2.1');
      expect(res.headers['ratelimit-limit']).toBe('5');
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it('never limits /healthz or /readyz, nor adds RateLimit-* to them', async () => {
    for (let i = 0; i < 30; i++) {
      for (const url of ['/healthz', '/readyz']) {
        const res = await ask(url, {}, 'GET', '10.0.2.2');
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    }
  });
});

describe('the in-process counter', () => {
  it("starts a key's window at its first request and forgets ended windows", () => {
    let now = 1000;
    const windows = new WindowCounter(1000, () => now);
    expect([windows.hit('a').count, windows.hit('a').count, windows.hit('b').count]).toEqual([1, 2, 1]);
    now = 1999;
    expect(windows.hit('a')).toEqual({ count: 3, endsAt: 2000 });
    now = 2000;
    expect(windows.hit('a')).toEqual({ count: 1, endsAt: 3000 });
    expect(windows.peek('b')).toBeUndefined();
    now = 2500;
    expect(windows.adopt('c', 7, 300)).toEqual({ count: 7, endsAt: 2800 });
    now = 3500;
    // Two rotations later, everything older is gone; a live window survives a rotation.
    expect([windows.peek('a'), windows.peek('c')]).toEqual([undefined, undefined]);
    expect(windows.hit('d').count).toBe(1);
    now = 4200;
    expect(windows.hit('d')).toEqual({ count: 2, endsAt: 4500 });
  });
});
