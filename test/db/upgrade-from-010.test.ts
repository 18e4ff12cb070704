// A store that Hearth made up to migration 010 and filled, with fragments whose versions came from the store-wide
// counter and an event that answered the offsets it was written with, brought up to date as a start does: each
// community's versions go on above every version given before, counted per community from then on (011), and events
// without a time zone answer in UTC (013); on both stores.
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrationsFor } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { upgradeStore } from '../../src/store-upgrade.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
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

/** The version the old store-wide counter had reached, other communities' writes included, and these fragments'. */
const STORE_VERSION = 500;
const FRAGMENT_VERSION = 40;

const now = Date.parse('2026-03-10T12:00:00Z');
const clock = () => now;

type Name = 'first' | 'second' | 'zoneless';
const names: readonly Name[] = ['first', 'second', 'zoneless'];
/** Communities the old store held, each with the fixture's records; the last one also with `zoneless`. */
const communities: Record<Name, string> = { first: '', second: '', zoneless: '' };
const writers: Record<Name, string> = { first: '', second: '', zoneless: '' };

/** An event without a time zone, as migrations 004 to 010 kept it: with the offsets written, and answered. */
const zoneless = {
  kind: 'calendar_event',
  id: 'evoffset0001',
  title: 'Written in Pacific time',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  created_at: '2026-01-08T00:00:00Z',
  hosts: [profileIds.ada],
};
/** Its fragment's bytes as today's renderer writes them, and as the old one wrote them. */
const OLD_BYTES: [string, string][] = [
  ['"end_date":"2026-04-02T03:00:00+00:00"', '"end_date":"2026-04-01T20:00:00-07:00"'],
  ['"start_date":"2026-04-02T01:00:00+00:00"', '"start_date":"2026-04-01T18:00:00-07:00"'],
];

let source: TestStore;
let old: { store: Store; drop(): Promise<void> };
let app: FastifyInstance;

/** The driver gives jsonb back parsed; it goes in again as JSON text (an array would otherwise become a SQL array). */
const asParameter = (value: unknown) =>
  value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? JSON.stringify(value) : value;

async function columnsOf(store: Store): Promise<Map<string, string[]>> {
  const tables = await store.db.introspection.getTables();
  return new Map(tables.map((table) => [table.name, table.columns.map((column) => column.name)]));
}

/** Copies a community's rows, as today's import wrote them, in the columns both stores have. */
async function copyRows(to: Store, community: string): Promise<void> {
  const [there, here] = [await columnsOf(to), await columnsOf(source.store)];
  for (const table of TABLES) {
    const columns = (there.get(table) ?? []).filter((column) => here.get(table)?.includes(column));
    const key = table === 'communities' ? 'id' : 'community_id';
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))}
      from ${sql.table(table)} where ${sql.ref(key)} = ${community}`.execute(source.store.db);
    for (const row of rows) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
        values (${sql.join(columns.map((c) => asParameter(row[c])))})`.execute(to.db);
    }
  }
}

/** Makes the copy what migrations 004 to 010 left: versions from the store-wide counter, offsets kept and answered. */
async function asTheOldCodeLeftIt(store: Store): Promise<void> {
  await sql`update fragments set version = ${FRAGMENT_VERSION}`.execute(store.db);
  await sql`update store_state set version = ${STORE_VERSION}`.execute(store.db);
  await sql`update calendar_events set start_offset = -420, end_offset = -420 where id = ${zoneless.id}`.execute(
    store.db,
  );
  const { rows } = await sql<{ body: Buffer }>`select body from fragments where id = ${zoneless.id}`.execute(store.db);
  let body = Buffer.from(rows[0]?.body ?? '').toString('utf8');
  for (const [today, then] of OLD_BYTES) {
    expect(body).toContain(today);
    body = body.replace(today, then);
  }
  await sql`update fragments set body = ${Buffer.from(body, 'utf8')} where id = ${zoneless.id}`.execute(store.db);
}

beforeAll(async () => {
  source = await createTestStore();
  for (const name of names) {
    const records = name === 'zoneless' ? [...baseRecords, zoneless] : baseRecords;
    communities[name] = (await seedCommunity(source.store, `upgrade-${name}`, { records, clock })).community;
  }

  const database = await createTestDatabase();
  const store = openStore(database.url, 5, { queryMs: 20_000, acquireMs: 20_000 });
  old = { store, drop: () => database.drop() };
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrationsFor(store.dialect.name) },
  });
  const result = await migrator.migrateTo('010-pending-renders');
  if (result.error) throw result.error;
  for (const community of Object.values(communities)) await copyRows(store, community);
  await asTheOldCodeLeftIt(store);

  await upgradeStore(store);
  app = await buildApp(loadConfig({}, { rateLimitPerSecond: 10_000, authFailuresPerSecond: 10_000 }), {
    store,
    clock,
    logger: false,
  });
  await app.ready();
  const tokens = createTokensService(store.db, clock);
  for (const name of names)
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

/** An ETag of fragment versions, as splice.ts writes them. */
const etagOf = (...versions: number[]) => `"e${versions.map((n) => n.toString(36)).join('.')}"`;
const etag = (res: { headers: Record<string, unknown> }) => res.headers['etag'];
const OLD = FRAGMENT_VERSION;
/** evdstcross01's ETag before the upgrade: the event, its host, its speaker and its tag. */
const held = etagOf(OLD, OLD, OLD, OLD);

describe('versions, after the upgrade', () => {
  it("keeps the old ETags, then counts each community's versions on from above every old one", async () => {
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
      const ifMatch = String(etag(await request('GET', '/calendar_events/evongoing001', writers.second)));
      const res = await request(
        'PATCH',
        '/calendar_events/evongoing001',
        writers.second,
        { location },
        {
          'if-match': ifMatch,
        },
      );
      expect(res.statusCode).toBe(200);
    }
    const second = await request('GET', '/calendar_events/evongoing001', writers.second);
    expect(etag(second)).toBe(etagOf(STORE_VERSION + 3, OLD, OLD));

    const change = { location: 'Hangar 9' };
    const first = await request('PATCH', '/calendar_events/evdstcross01', writers.first, change, { 'if-match': held });
    expect([first.statusCode, etag(first)]).toEqual([200, etagOf(STORE_VERSION + 1, OLD, OLD, OLD)]);
    const stale = await request('GET', '/calendar_events/evdstcross01', writers.first, undefined, {
      'if-none-match': held,
    });
    expect([stale.statusCode, stale.json().data.location]).toEqual([200, 'Hangar 9']);

    const expected: Record<Name, number> = {
      first: STORE_VERSION + 1,
      second: STORE_VERSION + 3,
      // Its events rendered again at the start (013), under one version.
      zoneless: STORE_VERSION + 1,
    };
    const counters = await old.store.db.selectFrom('communities').select(['id', 'fragment_version']).execute();
    expect(new Map(counters.map((row) => [row.id, Number(row.fragment_version)]))).toEqual(
      new Map(names.map((name) => [communities[name], expected[name]])),
    );
    expect((await old.store.db.introspection.getTables()).map((table) => table.name)).not.toContain('store_state');
  });
});

describe('events without a time zone, after the upgrade', () => {
  it('answer in UTC, rendered again at the start; events whose answer is the same keep their ETags', async () => {
    const res = await request('GET', `/calendar_events/${zoneless.id}`, writers.zoneless, undefined, {
      'if-none-match': etagOf(OLD, OLD),
    });
    expect([res.statusCode, res.json().data.start_date, res.json().data.end_date, etag(res)]).toEqual([
      200,
      '2026-04-02T01:00:00+00:00',
      '2026-04-02T03:00:00+00:00',
      etagOf(STORE_VERSION + 1, OLD),
    ]);
    const list = await request('GET', '/calendar_events?per_page=100', writers.zoneless);
    const listed = (list.json().data.records as { id: string; start_date: string }[]).find((e) => e.id === zoneless.id);
    expect(listed?.start_date).toBe('2026-04-02T01:00:00+00:00');

    const zoned = await request('GET', '/calendar_events/evdstcross01', writers.zoneless, undefined, {
      'if-none-match': held,
    });
    expect(zoned.statusCode).toBe(304);

    expect(await old.store.db.selectFrom('pending_renders').selectAll().execute()).toEqual([]);
    const columns = (await columnsOf(old.store)).get('calendar_events') ?? [];
    expect(['time_zone', 'start_offset', 'end_offset'].map((column) => columns.includes(column))).toEqual([
      true,
      false,
      false,
    ]);
  });
});
