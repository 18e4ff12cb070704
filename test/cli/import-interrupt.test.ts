// Ctrl-C during `hearth import` says that nothing was written (the import is all or nothing), records the run as
// interrupted, and exits 130.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/db/store.js';
import { ensureBuilt, root } from '../helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-interrupt-'));
const bin = join(root, 'bin/hearth.js');

beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an interrupted import', () => {
  it('says nothing was written, writes nothing but the run’s record, and exits 130', async () => {
    // SQLite is enough: the store only has to be there; the rollback is the import's one transaction.
    const env = { ...process.env, DATABASE_URL: join(dir, 'hearth.db') };
    expect(spawnSync(process.execPath, [bin, 'community', 'create', 'acme'], { env, encoding: 'utf8' }).status).toBe(0);
    const child = spawn(process.execPath, [bin, 'import', '--community', 'acme', '-'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Lines keep coming and stdin stays open: the import is under way when Ctrl-C arrives.
    child.stdin.write(
      Array.from({ length: 2000 }, (_, i) => `{"kind":"tag","id":"t${i}","label":"Tag ${i}"}\n`).join(''),
    );
    // Long enough for the command to load and begin reading on a busy machine (it starts in well under a second).
    await new Promise((resolve) => setTimeout(resolve, 5000));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(err).toBe("Import interrupted: nothing was written to 'acme' (an import is all or nothing).\n");
    const store = openStore(join(dir, 'hearth.db'));
    try {
      expect(
        await store.db
          .selectFrom('tags')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst(),
      ).toEqual({
        n: 0,
      });
      // The run is recorded as interrupted: the lines sent were still waiting for the rest of their block.
      expect(
        await store.db
          .selectFrom('import_runs')
          .select(['source', 'origin', 'outcome', 'records', 'tags', 'error'])
          .execute(),
      ).toEqual([
        {
          source: 'import',
          origin: 'stdin',
          outcome: 'interrupted',
          records: 0,
          tags: 0,
          error: 'interrupted (Ctrl-C)',
        },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
