// One address, many clients (a NAT): random tokens flooding from it meet the address's failed-authentication
// limit, refused before any lookup, while a token this process knows as valid meets only its own token's limit;
// counted in memory and through Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { localCounter, SharedCounter, type RequestCounter } from '../../src/http/shared-counter.js';
import type { WindowCount } from '../../src/http/window-counter.js';
import { hashSecret } from '../../src/lib/secret-hash.js';
import { attachContract } from '../helpers/contract.js';
import { privateRedisAvailable, startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { seedCommunity, type Seeded } from '../helpers/seed.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

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

/**
 * The app's own counter with windows of a minute, each shown as ending within the second: a busy machine
 * cannot end a window in the middle of a test, and `RateLimit-Reset` stays exactly 1 as with real windows.
 */
function heldWindows(inner: RequestCounter): RequestCounter {
  const shown = (window: WindowCount): WindowCount => ({ count: window.count, endsAt: performance.now() + 999 });
  return {
    hit(key, sharedKey) {
      const count = inner.hit(key, sharedKey);
      return count instanceof Promise ? count.then(shown) : shown(count);
    },
    peek(key) {
      const window = inner.peek(key);
      return window && shown(window);
    },
    get sharing() {
      return inner.sharing;
    },
    ready: (ms) => inner.ready(ms),
    close: () => inner.close(),
  };
}

const windowMs = 60_000;
const path = '/admin/v0/calendar_events';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const headersOf = (res: { headers: Record<string, unknown> }) => [
  res.headers['ratelimit-limit'],
  res.headers['ratelimit-remaining'],
  res.headers['ratelimit-reset'],
];
const gateBody = (requestId: string) => ({
  success: false,
  error: 'Too many failed authentications from this address (at most 3 per second); retry in 1 second.',
  code: 'rate_limited',
  request_id: requestId,
});

let testStore: TestStore;
let redis: PrivateRedis | undefined;
beforeAll(async () => {
  testStore = await createTestStore();
  if (privateRedisAvailable()) redis = await startPrivateRedis();
});
afterAll(async () => {
  await testStore.cleanup();
  await redis?.stop();
});

const variants: { name: string; shared: boolean }[] = [
  { name: 'counted in memory', shared: false },
  { name: 'counted in Redis', shared: true },
];

describe.each(variants)('failed authentication from a shared address ($name)', ({ name, shared }) => {
  let app: FastifyInstance;
  let acme: Seeded;
  const counter = new QueryCounter();
  let client: Redis | undefined;

  beforeAll(async () => {
    if (shared && !redis) return;
    const { store } = testStore;
    acme = await seedCommunity(store, shared ? 'nat-redis' : 'nat-memory', { name });
    let inner: RequestCounter = localCounter(windowMs);
    app = await buildApp(
      loadConfig({}, { databaseUrl: testStore.url, rateLimitPerSecond: 5, authFailuresPerSecond: 3 }),
      {
        store: { ...store, db: store.db.withPlugin(counter) },
        logger: false,
        requestCounter: (log) => {
          if (redis && shared)
            inner = SharedCounter.connect(redis.url, log, {
              windowMs,
              deadlineMs: 5_000,
              probeMs: 500,
              keyPrefix: 'hearth:rl:',
            });
          return heldWindows(inner);
        },
      },
    );
    attachContract(app);
    await app.ready();
    if (redis && shared) {
      await inner.ready(10_000);
      expect(inner.sharing).toBe('ok');
      client = new Redis(redis.url);
    }
  });
  afterAll(async () => {
    client?.disconnect();
    await app?.close();
  });

  const ask = (address: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: path, headers, remoteAddress: address });
  /** A random token's request: refused by the address's gate, without a single query. */
  let gated = 0;
  const refusedAtGate = async (address: string, secret: string) => {
    const before = counter.queries;
    const requestId = `req-gate-${++gated}`;
    const res = await ask(address, { ...bearer(secret), 'x-request-id': requestId });
    expect(counter.queries).toBe(before);
    expect([res.statusCode, res.headers['retry-after'], headersOf(res), res.json()]).toEqual([
      429,
      '1',
      ['3', '0', '1'],
      gateBody(requestId),
    ]);
  };
  /** Three random tokens: 401 each, counted against the address until its limit is reached. */
  const flood = async (address: string) => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await ask(address, bearer(`hth_${address}_random${i}`)));
    expect(answers.map((res) => [res.statusCode, ...headersOf(res)])).toEqual([
      [401, '3', '2', '1'],
      [401, '3', '1', '1'],
      [401, '3', '0', '1'],
    ]);
  };

  it.runIf(!shared || privateRedisAvailable())(
    "lets a token this process knows as valid past the address's limit, to its own token's limit",
    async () => {
      const address = shared ? '10.9.1.1' : '10.9.0.1';
      const known = await acme.newToken(['read']);
      const first = await ask(address, bearer(known));
      expect([first.statusCode, ...headersOf(first)]).toEqual([200, '5', '4', '1']);

      await flood(address);
      const answers = [];
      for (let i = 0; i < 5; i++) {
        await refusedAtGate(address, `hth_flood${i}`);
        answers.push(await ask(address, bearer(known)));
      }
      expect(answers.map((res) => [res.statusCode, ...headersOf(res)])).toEqual([
        [200, '5', '3', '1'],
        [200, '5', '2', '1'],
        [200, '5', '1', '1'],
        [200, '5', '0', '1'],
        [429, '5', '0', '1'],
      ]);
      const limited = answers[4];
      expect(limited?.headers['retry-after']).toBe('1');
      expect(limited?.json()).toEqual({
        success: false,
        error: 'Rate limit of 5 requests per second exceeded; retry in 1 second.',
        code: 'rate_limited',
        request_id: limited?.headers['x-request-id'],
      });
      if (client) {
        // Both counts are the shared ones: the address's failures, and the token's requests under its hash.
        expect(await client.get(`hearth:rl:f:${address}`)).toBe('3');
        expect(await client.get(`hearth:rl:t:${hashSecret(known)}`)).toBe('6');
      }
    },
  );

  it.runIf(!shared || privateRedisAvailable())(
    'refuses a valid token this process has not seen authenticate, without looking it up; other addresses go on',
    async () => {
      const address = shared ? '10.9.1.2' : '10.9.0.2';
      await flood(address);
      const unseen = await acme.newToken(['read']);
      await refusedAtGate(address, unseen);
      const elsewhere = await ask(shared ? '10.9.1.3' : '10.9.0.3', bearer(unseen));
      expect([elsewhere.statusCode, ...headersOf(elsewhere)]).toEqual([200, '5', '4', '1']);
      // Known now, it passes the flooded address's limit too.
      const known = await ask(address, bearer(unseen));
      expect([known.statusCode, ...headersOf(known)]).toEqual([200, '5', '3', '1']);
    },
  );
});
