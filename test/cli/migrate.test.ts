// `hearth migrate` and `hearth migrate status`, and every other command against a store that is not at this version:
// one an older Hearth left behind, one whose last upgrade stopped before its renders, one a newer Hearth migrated.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationNames } from '../../src/db/migrate.js';
import { initialMigration } from '../../src/db/migrations/001-initial.js';
import { openStore, type Store } from '../../src/db/store.js';
import { runCli } from '../helpers/run-cli.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';

const dropping: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of dropping.splice(0)) await drop();
});

async function database(): Promise<string> {
  const made = await createTestDatabase();
  dropping.push(made.drop);
  return made.url;
}

/** Opens the store at `url`, runs `work`, closes it. */
async function withStore<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(url, 2, { queryMs: 20_000, acquireMs: 20_000 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** A store as Hearth's first version left it (migration 001 only), holding one community. */
async function storeAt001(): Promise<string> {
  const url = await database();
  await withStore(url, async (store) => {
    const migrator = new Migrator({
      db: store.db,
      provider: { getMigrations: async () => ({ '001-initial': initialMigration(store.dialect.name) }) },
    });
    const result = await migrator.migrateToLatest();
    if (result.error) throw result.error;
    await sql`insert into communities (id, slug, name, created_at)
      values ('c1', 'old', 'Old Makers', '2025-01-02 03:04:05.000000')`.execute(store.db);
  });
  return url;
}

/** What a command must leave as it found it: the migrations, the tables, the communities, and a SQLite file's bytes. */
async function snapshot(url: string) {
  const stored = await withStore(url, async (store) => ({
    migrations: (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db)).rows,
    tables: (await store.db.introspection.getTables()).map((table) => table.name).sort(),
    communities: (await sql`select id, slug, name from communities order by id`.execute(store.db)).rows,
  }));
  const bytes = testDatabaseUrl ? null : createHash('sha256').update(readFileSync(url)).digest('hex');
  return { ...stored, bytes };
}

const names = migrationNames();
const upToDate = `The store is up to date: ${names.length} migrations applied.`;

describe('a store an older Hearth left behind', () => {
  it('stops every other command with a message naming `hearth migrate`, and changes nothing', async () => {
    const url = await storeAt001();
    const env = { DATABASE_URL: url };
    const before = await snapshot(url);
    const behind = `hearth: The store is behind this version of Hearth (${names.length - 1} migrations pending): back it up with \`hearth backup FILE\`, then run \`hearth migrate\` (\`hearth serve\` also applies them when it starts).`;
    for (const args of [
      ['community', 'list'],
      ['community', 'create', 'new'],
      ['token', 'create', '--community', 'old'],
      ['export', '--community', 'old'],
      ['demo', '--quiet'],
    ])
      expect(await runCli(args, env), args.join(' ')).toEqual({ code: 1, out: '', err: behind });
    expect(await snapshot(url)).toEqual(before);
  });

  it('is listed by `migrate status` (exit code 3), brought up to date by `migrate`, then served to every command', async () => {
    const url = await storeAt001();
    const env = { DATABASE_URL: url };
    const before = await snapshot(url);
    expect(await runCli(['migrate', 'status'], env)).toEqual({
      code: 3,
      out: ['applied\t001-initial', ...names.slice(1).map((name) => `pending\t${name}`)].join('\n'),
      err: `hearth: ${names.length - 1} migrations pending: run \`hearth migrate\`.`,
    });
    expect(await snapshot(url)).toEqual(before);

    expect(await runCli(['migrate'], env)).toEqual({
      code: 0,
      out: [
        ...names.slice(1).map((name) => `Applied ${name}.`),
        'Rendered the records of 1 community again.',
        upToDate,
      ].join('\n'),
      err: '',
    });
    expect(await runCli(['migrate', 'status'], env)).toEqual({
      code: 0,
      out: names.map((name) => `applied\t${name}`).join('\n'),
      err: upToDate,
    });
    expect(await runCli(['migrate'], env)).toEqual({ code: 0, out: upToDate, err: '' });
    const listed = await runCli(['community', 'list', '--json'], env);
    expect([listed.code, JSON.parse(listed.out)]).toEqual([
      0,
      [{ id: 'c1', slug: 'old', name: 'Old Makers', created_at: '2025-01-02 03:04:05.000000+00' }],
    ]);
  });
});

describe('a new store', () => {
  it('lists every migration pending, and is made by any command', async () => {
    const env = { DATABASE_URL: await database() };
    expect(await runCli(['migrate', 'status'], env)).toEqual({
      code: 3,
      out: names.map((name) => `pending\t${name}`).join('\n'),
      err: `hearth: ${names.length} migrations pending: run \`hearth migrate\`.`,
    });
    expect(await runCli(['community', 'create', 'fresh'], env)).toEqual({
      code: 0,
      out: "Created community 'fresh' (fresh).",
      err: '',
    });
    expect((await runCli(['migrate', 'status'], env)).code).toBe(0);
  });
});

describe('a store whose upgrade stopped before its renders', () => {
  it('stops other commands until `migrate` renders them', async () => {
    const url = await database();
    const env = { DATABASE_URL: url };
    expect((await runCli(['community', 'create', 'acme'], env)).code).toBe(0);
    await withStore(url, (store) =>
      sql`insert into pending_renders (community_id, kind) select id, 'event' from communities`.execute(store.db),
    );
    const before = await snapshot(url);
    expect(await runCli(['token', 'list', '--community', 'acme'], env)).toEqual({
      code: 1,
      out: '',
      err: "hearth: The store's last migration left records to render again: run `hearth migrate` (`hearth serve` also renders them when it starts).",
    });
    expect(await runCli(['migrate', 'status'], env)).toEqual({
      code: 3,
      out: names.map((name) => `applied\t${name}`).join('\n'),
      err: "hearth: The last migration's records are left to render again: run `hearth migrate`.",
    });
    expect(await snapshot(url)).toEqual(before);
    expect(await runCli(['migrate'], env)).toEqual({
      code: 0,
      out: ['Rendered the records of 1 community again.', upToDate].join('\n'),
      err: '',
    });
    expect(await withStore(url, (store) => store.db.selectFrom('pending_renders').selectAll().execute())).toEqual([]);
  });
});

describe('a store a newer Hearth migrated', () => {
  it('stops every command, the server and `migrate` included, and changes nothing', async () => {
    const url = await database();
    const env = { DATABASE_URL: url };
    expect((await runCli(['community', 'create', 'acme'], env)).code).toBe(0);
    await withStore(url, (store) =>
      sql`insert into kysely_migration (name, timestamp)
        values ('900-from-a-newer-hearth', '2027-01-01T00:00:00.000Z')`.execute(store.db),
    );
    const before = await snapshot(url);
    const ahead =
      'hearth: The store was migrated by a newer version of Hearth: it holds a migration this version does not know (900-from-a-newer-hearth). Run that version, or restore a backup taken before it.';
    for (const args of [
      ['community', 'list'],
      ['migrate'],
      ['serve', '--port', '0'],
      ['start', '--port', '0', '--quiet'],
    ])
      expect(await runCli(args, env), args.join(' ')).toEqual({ code: 1, out: '', err: ahead });
    expect(await runCli(['migrate', 'status'], env)).toEqual({
      code: 1,
      out: [...names.map((name) => `applied\t${name}`), 'unknown\t900-from-a-newer-hearth'].join('\n'),
      err: ahead,
    });
    expect(await snapshot(url)).toEqual(before);
  });
});
