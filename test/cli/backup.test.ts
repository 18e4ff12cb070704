// `hearth backup FILE`: SQLite's online backup and PostgreSQL's pg_dump, each into a file only its owner may read,
// that brings back the same rows; what it refuses, and what it says when pg_dump is missing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
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

/** A folder of the test's own for backups, removed after the test. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-backup-'));
  dropping.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function withStore<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(url, 2, { queryMs: 20_000, acquireMs: 20_000 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The rows a backup must hold: migrations, communities and tokens. */
const contents = (url: string) =>
  withStore(url, async (store) => ({
    migrations: (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db)).rows,
    communities: await store.db.selectFrom('communities').select(['id', 'slug', 'name']).orderBy('id').execute(),
    tokens: await store.db.selectFrom('tokens').select(['id', 'secret_hash', 'scopes']).orderBy('id').execute(),
  }));

/** A store with two communities and a token, made through the command line. */
async function filledStore(): Promise<{ url: string; env: NodeJS.ProcessEnv }> {
  const url = await database();
  const env = { DATABASE_URL: url, PATH: process.env['PATH'] };
  for (const args of [
    ['community', 'create', 'acme', '--name', 'Acme Makers'],
    ['community', 'create', 'beta'],
    ['token', 'create', '--community', 'acme'],
  ])
    expect((await runCli(args, env)).code, args.join(' ')).toBe(0);
  return { url, env };
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.skipIf(testDatabaseUrl)('hearth backup on SQLite', () => {
  it('copies a store in use, its WAL included, into a 0600 file holding the same rows', async () => {
    const { url, env } = await filledStore();
    // A server's connection stays open, and a change since is still in the WAL when the backup runs.
    const serving = openStore(url, 1);
    try {
      await serving.db.updateTable('communities').set({ name: 'Beta Club' }).where('slug', '=', 'beta').execute();
      expect(statSync(`${url}-wal`).size).toBeGreaterThan(0);
      const dir = folder();
      const file = join(dir, 'hearth-backup.db');
      const run = await runCli(['backup', file], env);
      expect(run).toEqual({ code: 0, out: `Backed up the store to ${file} (${statSync(file).size} bytes).`, err: '' });
      expect(mode(file)).toBe('600');
      expect(readdirSync(dir)).toEqual(['hearth-backup.db']);
      const copied = await contents(file);
      expect(copied.communities.map((c) => [c.slug, c.name])).toEqual(
        expect.arrayContaining([
          ['acme', 'Acme Makers'],
          ['beta', 'Beta Club'],
        ]),
      );
      expect(copied).toEqual(await contents(url));
    } finally {
      await serving.close();
    }
  });

  it('refuses an existing file unless --force, and a folder that does not exist', async () => {
    const { url, env } = await filledStore();
    const dir = folder();
    const file = join(dir, 'kept.db');
    writeFileSync(file, 'an older backup', { mode: 0o644 });
    expect(await runCli(['backup', file], env)).toEqual({
      code: 1,
      out: '',
      err: `hearth: ${file} already exists: choose another name, or replace it with --force.`,
    });
    expect(readFileSync(file, 'utf8')).toBe('an older backup');
    expect(await runCli(['backup', file, '--force'], env)).toEqual({
      code: 0,
      out: `Backed up the store to ${file} (${statSync(file).size} bytes).`,
      err: '',
    });
    expect(mode(file)).toBe('600');
    expect(await contents(file)).toEqual(await contents(url));

    const missing = join(dir, 'no-such-folder');
    expect(await runCli(['backup', join(missing, 'b.db')], env)).toEqual({
      code: 1,
      out: '',
      err: `hearth: No folder '${missing}' to write ${join(missing, 'b.db')} into: create it first.`,
    });
    expect(readdirSync(dir)).toEqual(['kept.db']);
  });

  it('copies a store behind this version as it is, and refuses the store itself or one that is not there', async () => {
    const url = await database();
    await withStore(url, async (store) => {
      const migrator = new Migrator({
        db: store.db,
        provider: { getMigrations: async () => ({ '001-initial': initialMigration('sqlite') }) },
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    });
    const file = join(folder(), 'before-upgrade.db');
    expect((await runCli(['backup', file], { DATABASE_URL: url })).code).toBe(0);
    const at001 = { migrations: [{ name: '001-initial' }], communities: [], tokens: [] };
    expect(await contents(file)).toEqual(at001);
    expect(await contents(url)).toEqual(at001);

    expect(await runCli(['backup', url, '--force'], { DATABASE_URL: url })).toEqual({
      code: 1,
      out: '',
      err: `hearth: ${url} is the store itself: name another file.`,
    });
    const nowhere = join(folder(), 'nothing.db');
    expect(await runCli(['backup', file, '--force'], { DATABASE_URL: nowhere })).toEqual({
      code: 1,
      out: '',
      err: `hearth: No SQLite store at '${nowhere}' to back up: check DATABASE_URL.`,
    });
    expect(() => statSync(nowhere)).toThrow(/ENOENT/);
    expect(await runCli(['backup', file], { DATABASE_URL: ':memory:' })).toEqual({
      code: 1,
      out: '',
      err: 'hearth: An in-memory store (DATABASE_URL=:memory:) has nothing to back up.',
    });
  });
});

describe.runIf(testDatabaseUrl)('hearth backup on PostgreSQL', () => {
  it("runs pg_dump into a 0600 file that pg_restore brings back; pg_dump's failure is told and leaves no file", async () => {
    const { url, env } = await filledStore();
    const dir = folder();
    const file = join(dir, 'hearth.dump');
    expect(await runCli(['backup', file], env)).toEqual({
      code: 0,
      out: `Backed up the store to ${file} with pg_dump (${statSync(file).size} bytes; restore with pg_restore).`,
      err: '',
    });
    expect(mode(file)).toBe('600');
    expect(await runCli(['backup', file], env)).toEqual({
      code: 1,
      out: '',
      err: `hearth: ${file} already exists: choose another name, or replace it with --force.`,
    });

    const restored = await database();
    const restore = spawnSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored}`, file], {
      encoding: 'utf8',
    });
    expect([restore.status, restore.stderr]).toEqual([0, '']);
    expect(await contents(restored)).toEqual(await contents(url));

    const absent = new URL(url);
    absent.pathname = '/hearth_no_such_database';
    const failed = await runCli(['backup', join(dir, 'failed.dump')], { ...env, DATABASE_URL: absent.toString() });
    expect([failed.code, failed.out]).toEqual([1, '']);
    expect(failed.err).toMatch(
      /^hearth: pg_dump failed \(exit 1\): pg_dump: error: .*"hearth_no_such_database" does not exist$/s,
    );
    expect(readdirSync(dir)).toEqual(['hearth.dump']);
  });
});

describe('hearth backup without pg_dump', () => {
  it('says to use pg_dump, and writes nothing', async () => {
    const dir = folder();
    expect(
      await runCli(['backup', join(dir, 'hearth.dump')], {
        DATABASE_URL: 'postgres://hearth@127.0.0.1:9/hearth',
        PATH: join(dir, 'no-programs-here'),
      }),
    ).toEqual({
      code: 1,
      out: '',
      err: 'hearth: pg_dump is not on PATH: install PostgreSQL\'s client programs (of the server\'s major version or newer), or run it where they are: pg_dump --format=custom --file=FILE "$DATABASE_URL".',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});
