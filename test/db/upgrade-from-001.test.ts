// A store that an old Hearth made (migration 001) and filled, brought up to date as a start does, answers exactly as a
// store made fresh holding the same rows: bodies and ETags of events, feeds, posts and search, on both stores.
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { initialMigration } from '../../src/db/migrations/001-initial.js';
import { openStore, type Store } from '../../src/db/store.js';
import { rebuildCommunity } from '../../src/rendering/fragment-refresh.js';
import { renderPending } from '../../src/rendering/pending-renders.js';
import { upgradeStore } from '../../src/store-upgrade.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { postRecords } from '../../fixtures/posts.js';
import { seedCommunity } from '../helpers/seed.js';
import { createTestDatabase, createTestStore, type TestStore } from '../helpers/test-store.js';

/** The tables of migration 001 that hold a community's records, parents first. */
const TABLES = [
  'communities',
  'profiles',
  'feeds',
  'tags',
  'calendar_events',
  'event_profiles',
  'event_tags',
  'event_publications',
  'posts',
  'comments',
] as const;

const now = Date.parse('2026-03-10T12:00:00Z');
const clock = () => now;

interface Served {
  store: Store;
  app: FastifyInstance;
  token: string;
  close(): Promise<void>;
}

let source: TestStore;
let community: string;
let upgraded: Served;
let fresh: Served;
/** The columns each table had at migration 001, as that store holds them. */
let columnsAt001: Map<string, string[]>;

/** A store on a new database, migrated up to migration 001 only. */
async function storeAt001(): Promise<{ store: Store; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  const store = openStore(database.url, 5, { queryMs: 20_000, acquireMs: 20_000 });
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => ({ '001-initial': initialMigration(store.dialect.name) }) },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return { store, drop: () => database.drop() };
}

/** The driver gives jsonb back parsed; it goes in again as JSON text (an array would otherwise become a SQL array). */
const asParameter = (value: unknown) =>
  value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? JSON.stringify(value) : value;

/** Copies the community's rows of 001's columns from the source store, posts and comments in creation order. */
async function copyRows(to: Store): Promise<void> {
  for (const table of TABLES) {
    const columns = columnsAt001.get(table) ?? [];
    const key = table === 'communities' ? 'id' : 'community_id';
    const order = table === 'posts' || table === 'comments' ? ['created_at', 'id'] : columns;
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns.map((c) => sql.ref(c)))}
      from ${sql.table(table)} where ${sql.ref(key)} = ${community}
      order by ${sql.join(order.map((c) => sql.ref(c)))}`.execute(source.store.db);
    for (const row of rows) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
        values (${sql.join(columns.map((c) => asParameter(row[c])))})`.execute(to.db);
    }
  }
}

/** An app over `store`; `release` closes the store and drops its database. */
async function serve(store: Store, release: () => Promise<void>): Promise<Served> {
  const config = loadConfig({}, { rateLimitPerSecond: 10_000, authFailuresPerSecond: 10_000 });
  const app = await buildApp(config, { store, clock, logger: false });
  await app.ready();
  const token = (await createTokensService(store.db, clock).create(community, { scopes: ['read'] })).secret;
  return {
    store,
    app,
    token,
    async close() {
      await app.close();
      await release();
    },
  };
}

beforeAll(async () => {
  // The rows, as today's import writes them.
  source = await createTestStore();
  community = (await seedCommunity(source.store, 'upgrade', { records: postRecords, clock })).community;

  // Made by migration 001 and filled with those rows of its columns, then brought up to date as a start does.
  const old = await storeAt001();
  const tables = await old.store.db.introspection.getTables();
  columnsAt001 = new Map(tables.map((table) => [table.name, table.columns.map((column) => column.name)]));
  await copyRows(old.store);
  await upgradeStore(old.store);
  upgraded = await serve(old.store, async () => {
    await old.store.close();
    await old.drop();
  });

  // Made by today's migrations and given the same rows; its records rendered as the repair renders them.
  const made = await createTestStore();
  await copyRows(made.store);
  await made.store.db.transaction().execute((trx) => rebuildCommunity(trx, community));
  fresh = await serve(made.store, () => made.cleanup());
});

afterAll(async () => {
  await upgraded?.close();
  await fresh?.close();
  await source?.cleanup();
});

async function ids(table: 'profiles' | 'feeds' | 'tags' | 'calendar_events' | 'posts'): Promise<string[]> {
  const rows = await source.store.db.selectFrom(table).select('id').where('community_id', '=', community).execute();
  return rows.map((row) => row.id).sort();
}

/**
 * Expects both stores to answer `path` with the same status, ETag and body; the status is `status`, or for a path
 * naming a feed (an archived or unlisted one answers 404 to some reads), 200 or 404. Returns the status.
 */
async function expectSameAnswer(path: string, status: 200 | 'feed' = 200): Promise<number> {
  const get = async ({ app, token }: Served) => {
    const res = await app.inject({
      method: 'GET',
      url: `/admin/v0${path}`,
      headers: { authorization: `Bearer ${token}` },
    });
    // An error names its request, which differs between any two answers.
    const body = res.statusCode === 200 ? res.body : res.body.replace(/"request_id":"[^"]*"/, '"request_id":""');
    return { status: res.statusCode, etag: res.headers['etag'], body };
  };
  const expected = await get(fresh);
  if (status === 'feed') expect([200, 404], path).toContain(expected.status);
  else expect(expected.status, path).toBe(status);
  expect(await get(upgraded), path).toEqual(expected);
  return expected.status;
}

describe('a store made by migration 001, brought up to date', () => {
  it('left nothing pending, and a second start renders nothing', async () => {
    expect(await upgraded.store.db.selectFrom('pending_renders').selectAll().execute()).toEqual([]);
    expect(await renderPending(upgraded.store.db)).toBe(0);
    expect(await renderPending(fresh.store.db)).toBe(0);
  });

  it('holds the records', async () => {
    const counted = await upgraded.store.db
      .selectFrom('fragments')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('count')])
      .where('community_id', '=', community)
      .groupBy('kind')
      .orderBy('kind')
      .execute();
    expect(counted.map((row) => [row.kind, Number(row.count)])).toEqual([
      ['event', (await ids('calendar_events')).length],
      ['feed', (await ids('feeds')).length],
      ['post', (await ids('posts')).length],
      ['profile', (await ids('profiles')).length],
      ['tag', (await ids('tags')).length],
    ]);
  });

  it('answers events as a fresh store does', async () => {
    const paths = [
      '/calendar_events',
      '/calendar_events?time_filter=upcoming',
      '/calendar_events?time_filter=past',
      '/calendar_events?date_filter=2026-03-12',
      '/calendar_events?status=draft',
      ...(await ids('calendar_events')).map((id) => `/calendar_events/${id}`),
    ];
    for (const path of paths) await expectSameAnswer(path);
    const statuses = [];
    for (const feed of await ids('feeds'))
      statuses.push(await expectSameAnswer(`/calendar_events?feed_id=${feed}`, 'feed'));
    expect(statuses).toContain(200);
  });

  it('answers feeds and posts as a fresh store does', async () => {
    await expectSameAnswer('/feeds');
    const statuses = [];
    for (const feed of await ids('feeds')) {
      for (const path of [`/feeds/${feed}`, `/feeds/${feed}/posts`, `/feeds/${feed}/posts?per_page=1&page=2`])
        statuses.push(await expectSameAnswer(path, 'feed'));
    }
    expect(statuses).toContain(200);
    for (const id of await ids('posts')) await expectSameAnswer(`/posts/${id}`);
  });

  it('finds what a fresh store finds', async () => {
    const paths = ['welcome', 'meetup', 'café', 'tie', 'text', 'grace', 'hi'].flatMap((q) => [
      `/search?type=post&q=${encodeURIComponent(q)}`,
      `/search?type=comment&q=${encodeURIComponent(q)}`,
    ]);
    for (const path of paths) await expectSameAnswer(path);
  });
});
