// SQLite: an import into a new store under a rollback journal (written once), any other under its write-ahead log,
// and a killed import into a new store keeping nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDriver as SQLite } from '../../src/db/sqlite-driver.js';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { demoRecords } from '../../src/demo/demo-records.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { importLines } from '../../src/import/import.service.js';
import { NEW_STORE_BYTES } from '../../src/import/write-sqlite-journal.js';
import { ensureBuilt, root } from '../helpers/processes.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const records = (scale: number, seed: number) =>
  [...demoRecords({ now: NOW, scale, seed })].map((record) => JSON.stringify(record));

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A store opened as the test stores are; closed after the test. */
function opened(url: string): Store {
  const store = openStore(url, 5, { queryMs: 20_000, acquireMs: 20_000 });
  cleanups.push(() => store.close());
  return store;
}

/** A new store file holding one empty community, opened by this one connection. */
async function newStore() {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  const store = opened(database.url);
  await migrateToLatest(store.db, store.dialect);
  const communities = createCommunitiesService(store.db, store.dialect, () => NOW);
  const community = (await communities.create('journal', 'journal')).id;
  return { store, url: database.url, community };
}

const journalMode = async (store: Store) =>
  (await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db)).rows[0]?.journal_mode;

const count = async (store: Store, table: string, community: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where community_id = ${community}`.execute(
        store.db,
      )
    ).rows[0]?.n,
  );

/** What is on disk beside the store while the import's rows are written (its transaction still open). */
interface Files {
  journal: boolean;
  walBytes: number;
}
const filesBeside = (path: string): Files => ({
  journal: existsSync(`${path}-journal`),
  walBytes: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0,
});

describe.skipIf(testDatabaseUrl)('an import into a new SQLite store', () => {
  it('writes under a rollback journal, then puts the write-ahead log back', async () => {
    const store = await newStore();
    expect(filesBeside(store.url).walBytes).toBeGreaterThan(0);
    let during: Files | null = null;
    let openedDuring = '';
    const summary = await importLines(store.store, store.community, records(200, 3), {
      onProgress: (phase) => {
        if (phase !== 'checking') return;
        during = filesBeside(store.url);
        // A server or command opening the store meanwhile is told why it cannot.
        try {
          opened(store.url);
        } catch (error) {
          openedDuring = (error as Error).message;
        }
      },
    });
    // The switch checkpointed the log and removed it; nothing is written to it.
    expect(during).toEqual({ journal: true, walBytes: 0 });
    expect(summary.posts).toBe(200);
    expect(openedDuring).toBe(
      `${store.url} is being written by another process (an import into a new store); try again once it ends`,
    );
    expect(await count(store.store, 'posts', store.community)).toBe(200);
    expect(await count(store.store, 'post_search_docs', store.community)).toBe(200);
    expect(await journalMode(store.store)).toBe('wal');
    expect(existsSync(`${store.url}-journal`)).toBe(false);
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(store.store.db)).rows[0]?.synchronous).toBe(
      1,
    );
  });

  it('keeps the write-ahead log while another connection has the store open', async () => {
    const store = await newStore();
    const reader = new SQLite(store.url, { readonly: true });
    try {
      expect(reader.prepare('select count(*) as n from posts').get()).toEqual({ n: 0 });
      let during: Files | null = null;
      await importLines(store.store, store.community, records(200, 3), {
        onProgress: (phase) => {
          if (phase !== 'checking') return;
          during = filesBeside(store.url);
        },
      });
      expect(during).toMatchObject({ journal: false });
      expect((during as Files | null)?.walBytes).toBeGreaterThan(0);
      expect(reader.prepare('select count(*) as n from posts').get()).toEqual({ n: 200 });
    } finally {
      reader.close();
    }
    expect(await journalMode(store.store)).toBe('wal');
  });

  it('keeps the write-ahead log for a store that is not new', async () => {
    const store = await newStore();
    // Grown past the limit by rows of its own: the import then changes pages that hold data.
    await sql`create table ballast (b blob)`.execute(store.store.db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i <= ${NEW_STORE_BYTES / 1048576})
      insert into ballast select zeroblob(1048576) from n`.execute(store.store.db);
    await sql`pragma wal_checkpoint(truncate)`.execute(store.store.db);
    let during: Files | null = null;
    await importLines(store.store, store.community, records(50, 3), {
      onProgress: (phase) => {
        if (phase !== 'checking') return;
        during = filesBeside(store.url);
      },
    });
    expect(during).toMatchObject({ journal: false });

    expect(await count(store.store, 'posts', store.community)).toBe(50);
  });

  it('a disk that fills mid-import: the store is unchanged and the error says why', async () => {
    const store = await newStore();
    // The store may grow by 40 pages more: too few for 2,000 posts. SQLite then rolls the transaction back itself,
    // and the import's own rollback finds none to roll back; its error must not hide the full disk.
    const pages = Number(Object.values((await sql`pragma page_count`.execute(store.store.db)).rows[0] ?? {})[0]);
    await sql.raw(`pragma max_page_count = ${pages + 40}`).execute(store.store.db);

    await expect(importLines(store.store, store.community, records(2000, 3))).rejects.toThrow(
      /^database or disk is full$/,
    );
    expect(await count(store.store, 'posts', store.community)).toBe(0);
  });

  it('killed, keeps nothing: the next connection rolls the journal back', async () => {
    ensureBuilt();
    const store = await newStore();
    const dir = mkdtempSync(join(tmpdir(), 'hearth-journal-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'big.ndjson');
    writeFileSync(file, `${records(30_000, 5).join('\n')}\n`);
    const url = store.url;
    // The test's own connection would keep the write-ahead log: the import must find the store to itself.
    await store.store.close();
    const child = spawn(
      process.execPath,
      [join(root, 'bin/hearth.js'), 'import', file, '--community', 'journal', '--quiet'],
      {
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    // Killed once its rows are being written: a journal beside the store says the transaction has changed pages.
    const started = Date.now();
    while (!existsSync(`${url}-journal`) && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(`${url}-journal`)).toBe(true);

    const reopened = opened(url);
    for (const table of ['feeds', 'profiles', 'posts', 'comments', 'fragments', 'post_search_docs'])
      expect([table, await count(reopened, table, store.community)]).toEqual([table, 0]);
    expect(await journalMode(reopened)).toBe('wal');
    expect(existsSync(`${url}-journal`)).toBe(false);
    await importLines(reopened, store.community, records(30, 5));
    expect(await count(reopened, 'posts', store.community)).toBe(30);
    expect(await count(reopened, 'post_search_docs', store.community)).toBe(30);
  }, 120_000);
});
