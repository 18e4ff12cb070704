// Answers Node's HTTP parser gives before a request exists (400, 408, 431, 417): exactly which headers they
// carry, no RateLimit-* among them, and no count made for them, in memory or in Redis (docs/api-behaviour.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { localCounter, SharedCounter, type RequestCounter } from '../../src/http/shared-counter.js';
import { attachContract } from '../helpers/contract.js';
import { privateRedisAvailable, startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { seedCommunity } from '../helpers/seed.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

/** The app's own counter, each key it is asked to count recorded. */
function recorded(inner: RequestCounter, keys: string[]): RequestCounter {
  return {
    hit(key, sharedKey) {
      keys.push(key);
      return inner.hit(key, sharedKey);
    },
    peek: (key) => inner.peek(key),
    get sharing() {
      return inner.sharing;
    },
    ready: (ms) => inner.ready(ms),
    close: () => inner.close(),
  };
}

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

describe.each(variants)("the HTTP parser's answers ($name)", ({ name, shared }) => {
  let app: FastifyInstance;
  let port: number;
  let token: string;
  let client: Redis | undefined;
  const counted: string[] = [];

  beforeAll(async () => {
    if (shared && !redis) return;
    const { store } = testStore;
    ({ token } = await seedCommunity(store, shared ? 'parser-redis' : 'parser-memory', { name }));
    let inner: RequestCounter = localCounter(1000);
    app = await buildApp(
      loadConfig({}, { databaseUrl: testStore.url, bodyTimeoutMs: 1000, rateLimitPerSecond: 1000 }),
      {
        store,
        logger: false,
        requestCounter: (log) => {
          if (redis && shared) inner = SharedCounter.connect(redis.url, log);
          return recorded(inner, counted);
        },
      },
    );
    attachContract(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    if (redis && shared) {
      await inner.ready(10_000);
      expect(inner.sharing).toBe('ok');
      client = new Redis(redis.url);
      await client.flushall();
    }
  });
  afterAll(async () => {
    client?.disconnect();
    await app?.close();
  });

  /** Header names in the order sent, and the status: nothing but the error body's own and the closing. */
  const shape = (answer: RawAnswer) => [answer.status, Object.keys(answer.headers)];
  const written = ['content-type', 'content-length', 'x-request-id', 'connection'];

  it.runIf(!shared || privateRedisAvailable())(
    'answer 400, 431, 408 and 417 without RateLimit-*, counting nothing, even with a valid token',
    async () => {
      const auth = `Authorization: Bearer ${token}\r\n`;
      const answers = [
        await rawRequest(port, ['GARBAGE\r\n\r\n']),
        await rawRequest(port, [`GET /admin/v0/calendar_events HTTP/1.1\r\nHost: x\r\n${auth}Bad Header\r\n\r\n`]),
        await rawRequest(port, [
          `GET /admin/v0/calendar_events HTTP/1.1\r\nHost: x\r\n${auth}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        ]),
        await rawRequest(
          port,
          ['GET /admin/v0/calendar_events HTTP/1.1\r\n', 'Host: x\r\n', auth, ...Array(20).fill('X-Slow: 1\r\n')],
          { gapMs: 200, timeoutMs: 8000 },
        ),
        await rawRequest(port, [`GET /admin/v0/calendar_events HTTP/1.1\r\nHost: x\r\n${auth}Expect: garbage\r\n\r\n`]),
      ];
      expect(answers.map(shape)).toEqual([
        [400, written],
        [400, written],
        [431, written],
        [408, written],
        [417, ['content-type', 'content-length', 'x-request-id', 'connection', 'date']],
      ]);
      expect(answers.map((answer) => answer.headers['connection'])).toEqual(Array(5).fill('close'));
      expect(counted).toEqual([]);
      if (client) expect(await client.dbsize()).toBe(0);

      // The same token's next request is its first counted one.
      const next = await fetch(`http://127.0.0.1:${port}/admin/v0/calendar_events`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect([next.status, next.headers.get('ratelimit-limit'), next.headers.get('ratelimit-remaining')]).toEqual([
        200,
        '1000',
        '999',
      ]);
      expect(counted).toEqual([`t:${token}`]);
    },
  );
});
