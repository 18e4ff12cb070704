// The database going away answers 503 `unavailable` promptly, and Hearth recovers by itself when it
// returns: tested against a private PostgreSQL server that the test stops and starts, and freezes (SIGSTOP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { percentile, sleep, startLoad, until } from '../helpers/load.js';
import { seedCommunity } from '../helpers/seed.js';

const runs = Boolean(testDatabaseUrl) && privatePostgresAvailable();
const FREEZE_GRACE_MS = 50;

describe.runIf(runs)('database outage (PostgreSQL)', () => {
  let server: PrivatePostgres;
  let store: Store;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    store = openStore(server.url, 4);
    await migrateToLatest(store.db, store.dialect);
    ({ token } = await seedCommunity(store, 'outage', { name: 'Outage' }));
    app = await buildApp(loadConfig({}, { databaseUrl: server.url, rateLimitPerSecond: 100_000 }), {
      store,
      logger: false,
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await store?.close();
    server?.destroy();
  });

  const ask = (url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-down' } });

  it('answers 503 while the database is down and recovers when it is back', async () => {
    expect((await ask('/admin/v0/calendar_events')).statusCode).toBe(200);

    server.stop();
    const started = Date.now();
    const down = await ask('/admin/v0/calendar_events');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.json()).toEqual({
      success: false,
      error: 'The service is temporarily unavailable; try again shortly.',
      code: 'unavailable',
      request_id: 'req-down',
    });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().code).toBe('unavailable');

    server.start();
    const back = await ask('/admin/v0/calendar_events');
    expect(back.statusCode).toBe(200);
    expect(back.json().data.total_records).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 60_000);

  it('answers 503 within 3 s while PostgreSQL is frozen, /readyz within 1 s, and recovers after SIGCONT', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const load = startLoad(`${base}/admin/v0/calendar_events`, { authorization: `Bearer ${token}` }, 8);
    await sleep(500);

    const frozenAt = performance.now();
    server.freeze();
    await sleep(1500);
    const readyStarted = performance.now();
    const ready = await fetch(`${base}/readyz`);
    const readyMs = performance.now() - readyStarted;
    expect([ready.status, readyMs < 1000]).toEqual([503, true]);
    await sleep(2500);
    const thawedAt = performance.now();
    server.thaw();
    const recoveredMs = await until(
      async () =>
        (await fetch(`${base}/readyz`)).status === 200 && (await ask('/admin/v0/calendar_events')).statusCode === 200,
    );
    await sleep(300);
    const answers = await load.stop();

    // Requests sent while it was frozen, and answered before it thawed. The first few milliseconds are left
    // out: the answer cache may still serve a 200 whose change check is under 1 ms old (the check is made at
    // most once a millisecond), which is the freshness it promises, and SIGSTOP takes a moment to land.
    const during = answers.filter((a) => a.at >= frozenAt + FREEZE_GRACE_MS && a.at + a.ms <= thawedAt);
    const ms = during.map((a) => a.ms);
    const statuses = [...new Set(during.map((a) => a.status))].sort();
    console.log(
      `[postgres frozen] 8 clients, SIGSTOP for 4 s: ${during.length} requests answered during it, statuses ${statuses.join(',')}, p50 ${Math.round(percentile(ms, 50))} ms, p99 ${Math.round(percentile(ms, 99))} ms, max ${Math.round(Math.max(...ms))} ms; /readyz ${Math.round(readyMs)} ms; 200 again ${(recoveredMs / 1000).toFixed(1)} s after SIGCONT`,
    );
    expect(statuses).toEqual([503]);
    expect(Math.max(...ms)).toBeLessThan(3000);
    // Everything sent in the window got its answer: none hung until the thaw.
    expect(answers.filter((a) => a.at >= frozenAt && a.at <= thawedAt - 3000 && a.at + a.ms > thawedAt)).toEqual([]);
    for (const answer of during) {
      expect(JSON.parse(answer.body)).toMatchObject({
        success: false,
        code: 'unavailable',
        error: 'The service is temporarily unavailable; try again shortly.',
      });
    }
    expect(answers.filter((a) => a.at > thawedAt + recoveredMs).every((a) => a.status === 200)).toBe(true);
  }, 60_000);
});
