// What Hearth writes to disk is its owner's alone (database, WAL, export: 0600; the data folder 0700), and a
// DATABASE_URL no store serves stops it with a message naming the scheme instead of becoming a file name.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { openStore } from '../../src/db/store.js';
import { createTestDatabase } from '../helpers/test-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'hearth-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(args: string[], env: Record<string, string>, cwd?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const before = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) }, env, {
      stdin: Readable.from(['']),
      stdout: new PassThrough(),
      progress: new PassThrough(),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    process.chdir(before);
  }
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('files Hearth creates', () => {
  it('makes the SQLite data folder 0700 and the database, -wal and -shm files 0600', async () => {
    const path = join(scratch, 'fresh', 'nested', 'hearth.db');
    expect((await run(['community', 'create', 'acme'], { DATABASE_URL: path })).code).toBe(0);
    // A second process keeps the WAL files around while it runs.
    const store = openStore(path);
    await store.db.selectFrom('communities').selectAll().execute();
    try {
      expect(readdirSync(join(scratch, 'fresh', 'nested')).sort()).toEqual([
        'hearth.db',
        'hearth.db-shm',
        'hearth.db-wal',
      ]);
      expect([mode(join(scratch, 'fresh')), mode(join(scratch, 'fresh', 'nested'))]).toEqual(['700', '700']);
      expect(
        ['hearth.db', 'hearth.db-shm', 'hearth.db-wal'].map((name) => mode(join(scratch, 'fresh', 'nested', name))),
      ).toEqual(['600', '600', '600']);
    } finally {
      await store.close();
    }
  });

  it('writes an export 0600, also over an existing world-readable file', async () => {
    const database = await createTestDatabase();
    try {
      const env = { DATABASE_URL: database.url };
      expect((await run(['community', 'create', 'acme'], env)).code).toBe(0);
      const fresh = join(scratch, 'export.ndjson');
      expect((await run(['export', '--community', 'acme', fresh], env)).code).toBe(0);
      expect(mode(fresh)).toBe('600');
      const existing = join(scratch, 'existing.ndjson');
      writeFileSync(existing, 'old', { mode: 0o644 });
      expect((await run(['export', '--community', 'acme', existing], env)).code).toBe(0);
      expect(mode(existing)).toBe('600');
    } finally {
      await database.drop();
    }
  });
});

describe('DATABASE_URL', () => {
  it('stops with a message naming an unsupported scheme, and creates nothing', async () => {
    const cwd = mkdtempSync(join(scratch, 'cwd-'));
    const result = await run(['community', 'list'], { DATABASE_URL: 'mysql://x@host/db' }, cwd);
    expect(result).toEqual({
      code: 2,
      out: '',
      err: "Invalid configuration: DATABASE_URL: unsupported scheme 'mysql:' (use a SQLite file path, sqlite:PATH, or a postgres:// URL)",
    });
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(cwd, 'mysql:'))).toBe(false);
  });

  it('accepts file paths, sqlite: and postgres URLs, and refuses other schemes in the config itself', () => {
    for (const url of [
      './data/hearth.db',
      '/var/lib/hearth/hearth.db',
      'sqlite:./x.db',
      'sqlite:///tmp/x.db',
      ':memory:',
      'postgres://u@h/db',
      'postgresql://u@h/db',
      'C:/data/hearth.db',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    for (const [url, scheme] of [
      ['mysql://x@host/db', 'mysql:'],
      ['MySQL://x', 'mysql:'],
      ['redis://h', 'redis:'],
      ['file:/tmp/x.db', 'file:'],
      ['https://example.com/db', 'https:'],
    ]) {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
        new ConfigError(
          `Invalid configuration: DATABASE_URL: unsupported scheme '${scheme}' (use a SQLite file path, sqlite:PATH, or a postgres:// URL)`,
        ),
      );
    }
  });
});
