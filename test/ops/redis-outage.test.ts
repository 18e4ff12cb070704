// Redis is an accelerator, never a dependency: with a private redis-server stopped, frozen, or absent from
// the start, requests keep their latency (each Redis call has a 30 ms deadline, then the process counts
// alone), one warning is logged per outage, /readyz says `redis: degraded`, and sharing resumes by itself.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { hashSecret } from '../../src/lib/secret-hash.js';
import { SharedCounter, type RequestCounter } from '../../src/http/shared-counter.js';
import { freePort, privateRedisAvailable, startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';
import { percentile, sleep, startLoad, until, type Answer } from '../helpers/load.js';
import { seedCommunity } from '../helpers/seed.js';

const store = testDatabaseUrl ? 'PostgreSQL' : 'SQLite';

interface LogLine {
  level: number;
  time: number;
  msg: string;
  redis?: string;
}

async function startApp(testStore: TestStore, redisUrl: string) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({}, { databaseUrl: testStore.url, redisUrl, rateLimitPerSecond: 100_000 });
  // Times each count: the only step of a request that Redis can slow down (the whole answer also waits on
  // the database and on a machine that may be busy with other work).
  const counts: { at: number; ms: number }[] = [];
  const timed = (counter: RequestCounter): RequestCounter => ({
    hit(key, sharedKey) {
      const at = performance.now();
      const result = counter.hit(key, sharedKey);
      if (!(result instanceof Promise)) {
        counts.push({ at, ms: performance.now() - at });
        return result;
      }
      return result.finally(() => counts.push({ at, ms: performance.now() - at }));
    },
    peek: (key) => counter.peek(key),
    get sharing() {
      return counter.sharing;
    },
    ready: (ms) => counter.ready(ms),
    close: () => counter.close(),
  });
  const app = await buildApp(config, {
    store: testStore.store,
    logger: { level: 'info', stream },
    requestCounter: (log) => timed(SharedCounter.connect(redisUrl, log)),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const logs = () => lines.map((line) => JSON.parse(line) as LogLine);
  const countP99 = (from: number, to: number) =>
    percentile(
      counts.filter((l) => l.at >= from && l.at <= to).map((l) => l.ms),
      99,
    );
  return { app, base, lines, logs, countP99 };
}

function summary(answers: Answer[]) {
  const ms = answers.map((a) => a.ms);
  return {
    requests: answers.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    statuses: [...new Set(answers.map((a) => a.status))].sort(),
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

describe.runIf(privateRedisAvailable())(`Redis outage (${store})`, () => {
  let redis: PrivateRedis;
  let testStore: TestStore;
  let app: FastifyInstance;
  let base: string;
  let lines: string[];
  let logs: () => LogLine[];
  let countP99: (from: number, to: number) => number;
  let token: string;
  let probe: Redis;
  const consoleError = vi.spyOn(console, 'error');

  beforeAll(async () => {
    redis = await startPrivateRedis();
    testStore = await createTestStore();
    ({ token } = await seedCommunity(testStore.store, 'outage', { name: 'Outage' }));
    ({ app, base, lines, logs, countP99 } = await startApp(testStore, redis.url));
    probe = new Redis(redis.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 200,
      enableOfflineQueue: false,
    });
    probe.on('error', () => {});
  }, 60_000);
  afterAll(async () => {
    probe?.disconnect();
    await app?.close();
    await testStore?.cleanup();
    await redis?.stop();
    consoleError.mockRestore();
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  /**
   * One warning per outage, not per request, and one line when Redis is back. On a busy machine a call may also
   * miss its 30 ms deadline outside the outage (a short outage of its own, with its own pair of lines), so only
   * the lines logged within the outage, and the first after it, are checked.
   */
  const expectOneWarning = (from: number, to: number) => {
    const during = logs().filter((l) => l.time >= from && l.time < to && l.redis !== undefined);
    expect(during.filter((l) => l.redis === 'ok')).toEqual([]);
    expect(during.filter((l) => l.redis === 'degraded').length).toBeLessThanOrEqual(1);
    const warning = logs()
      .filter((l) => l.time < to && l.redis === 'degraded')
      .at(-1);
    expect(warning?.msg).toBe('Redis does not answer: rate limits are counted in each process until it is back');
    expect(warning?.level).toBe(40);
    expect(logs().find((l) => l.time >= to && l.redis !== undefined)?.redis).toBe('ok');
  };
  const url = () => `${base}/admin/v0/calendar_events?per_page=1`;
  const sharing = async () => ((await (await fetch(`${base}/readyz`)).json()) as { redis?: string }).redis;
  /** The shared count of the load's token, or null when Redis does not answer. */
  const sharedCount = async (): Promise<number | null> => {
    try {
      if (probe.status !== 'ready') await probe.connect().catch(() => {});
      return Number((await probe.get(`hearth:rl:t:${hashSecret(token)}`)) ?? 0);
    } catch {
      return null;
    }
  };
  const countingResumed = async () => {
    const before = await sharedCount();
    await fetch(url(), { headers: auth() });
    const after = await sharedCount();
    return before !== null && after !== null && after > before;
  };

  it('keeps answering fast while Redis is stopped, then shares again when it is back', async () => {
    await until(async () => (await sharing()) === 'ok');
    const load = startLoad(url(), auth());
    await sleep(1000);
    await until(countingResumed);

    const down = performance.now();
    const downAt = Date.now();
    await redis.stop();
    await sleep(2000);
    const restarted = performance.now();
    const restartedAt = Date.now();
    expect(await sharing()).toBe('degraded');
    await redis.start();
    const recoveredMs = await until(async () => (await sharing()) === 'ok' && (await countingResumed()));
    const answers = await load.stop();
    const outage = summary(answers.filter((a) => a.at >= down && a.at <= restarted));
    const baseline = summary(answers.filter((a) => a.at < down));

    const inLimiter = countP99(down, restarted);
    console.log(
      `[redis stopped, ${store}] 4 clients: before ${baseline.requests} requests p50 ${round(baseline.p50)} p99 ${round(baseline.p99)} ms; during 2 s down ${outage.requests} requests p50 ${round(outage.p50)} p99 ${round(outage.p99)} ms (rate-limit step p99 ${round(inLimiter)} ms), statuses ${outage.statuses.join(',')}; shared counting resumed ${round(recoveredMs / 1000)} s after redis-server was back`,
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(outage.requests).toBeGreaterThan(20);
    expect(inLimiter).toBeLessThan(50);
    expectOneWarning(downAt, restartedAt);
  }, 60_000);

  it('keeps answering fast while Redis is frozen (SIGSTOP), then shares again when it thaws', async () => {
    const load = startLoad(url(), auth());
    await sleep(1000);
    await until(countingResumed);
    const frozen = performance.now();
    const frozenAt = Date.now();
    redis.freeze();
    await sleep(2000);
    const thawed = performance.now();
    const thawedAt = Date.now();
    expect(await sharing()).toBe('degraded');
    redis.thaw();
    const recoveredMs = await until(async () => (await sharing()) === 'ok' && (await countingResumed()));
    const answers = await load.stop();
    const outage = summary(answers.filter((a) => a.at >= frozen && a.at <= thawed));
    const baseline = summary(answers.filter((a) => a.at < frozen));

    const inLimiter = countP99(frozen, thawed);
    console.log(
      `[redis frozen, ${store}] 4 clients: before ${baseline.requests} requests p50 ${round(baseline.p50)} p99 ${round(baseline.p99)} ms; during 2 s SIGSTOP ${outage.requests} requests p50 ${round(outage.p50)} p99 ${round(outage.p99)} ms (rate-limit step p99 ${round(inLimiter)} ms); shared counting resumed ${round(recoveredMs / 1000)} s after SIGCONT`,
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(inLimiter).toBeLessThan(50);
    expectOneWarning(frozenAt, thawedAt);
  }, 60_000);

  it('writes only JSON log lines: no ioredis noise', () => {
    expect(lines.every((line) => line.startsWith('{'))).toBe(true);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('starts and serves without waiting when Redis is unreachable from the start', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const alone = await startApp(testStore, nobody);
    try {
      // Startup waits at most 500 ms for Redis before serving without it.
      expect(performance.now() - started).toBeLessThan(3000);
      const from = performance.now();
      const absent = startLoad(`${alone.base}/admin/v0/calendar_events?per_page=1`, auth());
      await sleep(1000);
      const answers = await absent.stop();
      const inLimiter = alone.countP99(from, performance.now());
      // The same load on the app whose Redis answers, for comparison.
      const present = startLoad(url(), auth());
      await sleep(1000);
      const baseline = summary(await present.stop());
      const figures = summary(answers);
      console.log(
        `[redis absent from the start, ${store}] 4 clients: ${figures.requests} requests p50 ${round(figures.p50)} p99 ${round(figures.p99)} ms, rate-limit step p99 ${round(inLimiter)} ms (with Redis: p50 ${round(baseline.p50)} p99 ${round(baseline.p99)} ms)`,
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(inLimiter).toBeLessThan(50);
      const ready = await fetch(`${alone.base}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', redis: 'degraded' }]);
      expect(
        alone
          .logs()
          .filter((l) => l.level === 40)
          .map((l) => l.redis),
      ).toEqual(['degraded']);
    } finally {
      await alone.app.close();
    }
  }, 30_000);
});
