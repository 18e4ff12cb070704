// A store that Hearth made up to migration 010 and filled, with fragments whose versions came from the store-wide
// counter, brought up to date as a start does: each community's versions go on above every version given before,
// counted per community from then on; on both stores.
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrationsFor } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { upgradeStore } from '../../src/store-upgrade.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { baseRecords } from '../../fixtures/community.js';
import { seedCommunity } from '../helpers/seed.js';
import { createTestDatabase, createTestStore, type TestStore } from '../helpers/test-store.js';

/** The tables a community's records and their fragments are in at migration 010, parents first. */
const TABLES = [
  'communities',
  'profiles',
  'feeds',
  'tags',
  'calendar_events',
  'event_profiles',
  'event_tags',
  'event_publications',
  'fragments',
  'event_feeds',
] as const;

/** The version the old store-wide counter had reached, other communities' writes included, and this one's fragments'. */
const STORE_VERSION = 500;
const FRAGMENT_VERSION = 40;

const now = Date.parse('2026-03-10T12:00:00Z');
const clock = () => now;

let source: TestStore;
let old: { store: Store; drop(): Promise<void> };
let app: FastifyInstance;
/** Two communities the old store held, each with the fixture's records. */
const communities: Record<'first' | 'second', string> = { first: '', second: '' };
const writers: Record<'first' | 'second', string> = { first: '', second: '' };

/** The driver gives jsonb back parsed; it goes in again as JSON text (an array would otherwise become a SQL array). */
const asParameter = (value: unknown) =>
  value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? JSON.stringify(value) : value;

/** Copies a community's rows of the columns the old store has, as today's import wrote them. */
async function copyRows(to: Store, community: string, columnsAt010: Map<string, string[]>): Promise<void> {
  for (const table of TABLES) {
    const columns = columnsAt010.get(table) ?? [];
    const key = table === 'communities' ? 'id' : 'community_id';
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))}
      from ${sql.table(table)} where ${sql.ref(key)} = ${community}`.execute(source.store.db);
    for (const row of rows) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
        values (${sql.join(columns.map((c) => asParameter(row[c])))})`.execute(to.db);
    }
  }
}

beforeAll(async () => {
  source = await createTestStore();
  for (const name of ['first', 'second'] as const)
    communities[name] = (
      await seedCommunity(source.store, `upgrade-${name}`, { records: baseRecords, clock })
    ).community;

  const database = await createTestDatabase();
  const store = openStore(database.url, 5, { queryMs: 20_000, acquireMs: 20_000 });
  old = { store, drop: () => database.drop() };
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrationsFor(store.dialect.name) },
  });
  const result = await migrator.migrateTo('010-pending-renders');
  if (result.error) throw result.error;
  const tables = await store.db.introspection.getTables();
  const columnsAt010 = new Map(tables.map((table) => [table.name, table.columns.map((column) => column.name)]));
  for (const community of Object.values(communities)) await copyRows(store, community, columnsAt010);
  // As the store-wide counter left them: every fragment of a community at the version of its last change, and the
  // counter past them all.
  await sql`update fragments set version = ${FRAGMENT_VERSION}`.execute(store.db);
  await sql`update store_state set version = ${STORE_VERSION}`.execute(store.db);

  await upgradeStore(store);
  app = await buildApp(loadConfig({}, { rateLimitPerSecond: 10_000, authFailuresPerSecond: 10_000 }), {
    store,
    clock,
    logger: false,
  });
  await app.ready();
  const tokens = createTokensService(store.db, clock);
  for (const name of ['first', 'second'] as const)
    writers[name] = (await tokens.create(communities[name], { scopes: ['read', 'events:write'] })).secret;
});

afterAll(async () => {
  await app?.close();
  await old?.store.close();
  await old?.drop();
  await source?.cleanup();
});

const request = (method: 'GET' | 'PATCH', url: string, token: string, body?: object, headers: object = {}) =>
  app.inject({
    method,
    url: `/admin/v0${url}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });

const v = (n: number) => n.toString(36);

describe('a store made by migration 010, brought up to date', () => {
  it("keeps the old ETags, then counts each community's versions on from above every old one", async () => {
    const etag = (res: { headers: Record<string, unknown> }) => res.headers['etag'];
    const held = `"e${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}"`;
    for (const name of ['first', 'second'] as const) {
      const before = await request('GET', '/calendar_events/evdstcross01', writers[name]);
      expect([before.statusCode, etag(before)]).toEqual([200, held]);
      const unchanged = await request('GET', '/calendar_events/evdstcross01', writers[name], undefined, {
        'if-none-match': held,
      });
      expect(unchanged.statusCode).toBe(304);
    }

    // The second community writes three times, then the first once: the first's change takes the first version past
    // the old counter, as the second's first change did.
    for (const location of ['Hangar 2', 'Hangar 3', 'Hangar 4']) {
      const ifMatch = etag(await request('GET', '/calendar_events/evongoing001', writers.second));
      const res = await request(
        'PATCH',
        '/calendar_events/evongoing001',
        writers.second,
        { location },
        {
          'if-match': String(ifMatch),
        },
      );
      expect(res.statusCode).toBe(200);
    }
    const second = await request('GET', '/calendar_events/evongoing001', writers.second);
    expect(etag(second)).toBe(`"e${v(STORE_VERSION + 3)}.${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}"`);

    const first = await request(
      'PATCH',
      '/calendar_events/evdstcross01',
      writers.first,
      { location: 'Hangar 9' },
      {
        'if-match': held,
      },
    );
    expect([first.statusCode, etag(first)]).toEqual([
      200,
      `"e${v(STORE_VERSION + 1)}.${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}.${v(FRAGMENT_VERSION)}"`,
    ]);
    const stale = await request('GET', '/calendar_events/evdstcross01', writers.first, undefined, {
      'if-none-match': held,
    });
    expect([stale.statusCode, stale.json().data.location]).toEqual([200, 'Hangar 9']);

    const counters = await old.store.db
      .selectFrom('communities')
      .select(['id', 'fragment_version'])
      .orderBy('id')
      .execute();
    expect(counters.map((row) => [row.id, Number(row.fragment_version)])).toEqual(
      Object.values(communities)
        .sort()
        .map((id) => [id, id === communities.first ? STORE_VERSION + 1 : STORE_VERSION + 3]),
    );
    expect((await old.store.db.introspection.getTables()).map((table) => table.name)).not.toContain('store_state');
  });
});
