// The database going away answers 503 `unavailable` promptly, and Hearth recovers by itself when it
// returns: tested against a private PostgreSQL server that the test stops and starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

const runs = Boolean(testDatabaseUrl) && privatePostgresAvailable();

describe.runIf(runs)('database outage (PostgreSQL)', () => {
  let server: PrivatePostgres;
  let store: Store;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    store = openStore(server.url, 4);
    await migrateToLatest(store.db, store.dialect);
    const community = await createCommunitiesService(store.db, store.dialect).create('outage', 'Outage');
    token = (await createTokensService(store.db).create(community.id, { scopes: ['read'] })).secret;
    app = await buildApp(loadConfig({}, { databaseUrl: server.url }), { store, logger: false });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await store?.close();
    server?.destroy();
  });

  const ask = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-down' } });

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
});
