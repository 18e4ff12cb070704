// A SQLite store left world-readable by an older version (file 0644, folder 0755) is tightened when it is opened,
// its new -wal/-shm come out 0600, and the change is said in one log line (one stderr line from a command).
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { TIGHTENED_MESSAGE } from '../../src/db/sqlite-file-modes.js';
import { openStore } from '../../src/db/store.js';
import { createTestStore, testDatabaseUrl } from '../helpers/test-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'hearth-modes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A migrated store whose folder and file then get the modes an older Hearth left them with. */
async function oldStore(name: string): Promise<{ folder: string; path: string }> {
  const folder = join(scratch, name);
  const path = join(folder, 'hearth.db');
  const store = openStore(path, 1);
  await migrateToLatest(store.db, store.dialect);
  await store.close();
  chmodSync(path, 0o644);
  chmodSync(folder, 0o755);
  return { folder, path };
}

// PostgreSQL keeps its own files: there is nothing of Hearth's on disk to tighten, so this half is SQLite's only.
describe.skipIf(testDatabaseUrl !== null)('an old SQLite store with wide modes', () => {
  it('is tightened to 0700 and 0600 when the app opens it, its WAL and SHM come out 0600, with one log line', async () => {
    const { folder, path } = await oldStore('served');
    expect([mode(folder), mode(path)]).toEqual(['755', '644']);
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const app = await buildApp(loadConfig({}, { databaseUrl: path }), { logger: { level: 'info', stream } });
    try {
      await app.store.db.selectFrom('communities').selectAll().execute();
      expect([mode(folder), mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([
        '700',
        '600',
        '600',
        '600',
      ]);
      expect(lines.map(({ level, msg, files }) => ({ level, msg, files }))).toEqual([
        {
          level: 40,
          msg: TIGHTENED_MESSAGE,
          files: [
            { path: folder, from: '755', to: '700' },
            { path, from: '644', to: '600' },
          ],
        },
      ]);
    } finally {
      await app.close();
    }
    // Once tight, an open changes and says nothing.
    const again = openStore(path, 1);
    expect(again.tightened).toEqual([]);
    await again.close();
  });

  it('is tightened by a command too, which says so in one line on stderr', async () => {
    const { folder, path } = await oldStore('commanded');
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      ['community', 'list'],
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { DATABASE_URL: path },
      { stdin: Readable.from(['']), stdout: new PassThrough(), progress: new PassThrough() },
    );
    expect({ code, err, folder: mode(folder), file: mode(path) }).toEqual({
      code: 0,
      err: [
        `${TIGHTENED_MESSAGE} (${folder} 755 → 700, ${path} 644 → 600)`,
        'No communities yet; create one with `hearth community create SLUG`.',
      ],
      folder: '700',
      file: '600',
    });
  });

  it('leaves a folder shared with the sticky bit as it is', async () => {
    const folder = join(scratch, 'shared');
    const path = join(folder, 'hearth.db');
    const store = openStore(path, 1);
    await store.close();
    chmodSync(folder, 0o1777);
    chmodSync(path, 0o644);
    const reopened = openStore(path, 1);
    await reopened.close();
    expect([reopened.tightened, mode(folder), mode(path)]).toEqual([[{ path, from: '644', to: '600' }], '777', '600']);
  });
});

describe.skipIf(testDatabaseUrl === null)('a PostgreSQL store', () => {
  it('has no files of Hearth to tighten', async () => {
    const { store, cleanup } = await createTestStore();
    expect(store.tightened).toEqual([]);
    await cleanup();
  });
});
