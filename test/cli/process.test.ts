// The `hearth` process as a shell runs it: --help loads no server module, a closed pipe ends quietly, .env is read.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/test-store.js';
import { root, watch } from '../helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bin = join(root, 'src/cli/bin.ts');
// tsx by path: the commands run in a scratch folder, where `--import tsx` would not resolve.
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const hearth = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) =>
  spawnSync(process.execPath, ['--import', tsx, bin, ...args], {
    cwd: options.cwd ?? dir,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
  });

describe('the hearth process', () => {
  it('--help loads commander and none of the server, the store or the config schema', () => {
    const file = join(dir, 'imports.txt');
    const result = spawnSync(
      process.execPath,
      ['--import', tsx, '--import', join(root, 'test/helpers/record-imports.mjs'), bin, '--help'],
      {
        cwd: dir,
        env: { ...process.env, HEARTH_IMPORTS_FILE: file },
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: hearth');
    const loaded = readFileSync(file, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:') && !url.includes('/node_modules/tsx/'));
    expect(loaded.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    const heavy = [
      'fastify',
      'kysely',
      'better-sqlite3',
      'better-sqlite3-napi',
      'pg',
      '@sinclair/typebox',
      'prom-client',
      'ioredis',
      'cli-progress',
      'dotenv',
    ];
    expect(loaded.filter((url) => heavy.some((name) => url.includes(`/node_modules/${name}/`)))).toEqual([]);
    expect(loaded.filter((url) => /\/src\/(app|config|server)\.ts$/.test(url))).toEqual([]);
  }, 30_000);

  it('reads .env in the working directory, the real environment winning', async () => {
    const database = await createTestDatabase();
    try {
      writeFileSync(join(dir, '.env'), `# a comment\nDATABASE_URL=${database.url}\nPORT=not-a-port\n`);
      const bad = hearth(['community', 'list']);
      expect([bad.status, bad.stderr.trim()]).toEqual([
        2,
        "Invalid configuration: PORT: got 'not-a-port'; allowed: a whole number from 0 to 65535",
      ]);
      const created = hearth(['community', 'create', 'from-env'], { env: { PORT: '4100' } });
      expect([created.status, created.stdout.trim()]).toEqual([0, "Created community 'from-env' (from-env)."]);
      const listed = hearth(['community', 'list', '--json'], { env: { PORT: '4100' } });
      expect((JSON.parse(listed.stdout) as { slug: string }[]).map((c) => c.slug)).toEqual(['from-env']);
    } finally {
      rmSync(join(dir, '.env'));
      await database.drop();
    }
  }, 60_000);

  it('ends quietly with exit 0 when the reader of stdout goes away (hearth export | head)', async () => {
    const database = await createTestDatabase();
    try {
      expect(hearth(['demo', '--quiet'], { env: { DATABASE_URL: database.url } }).status).toBe(0);
      const child = spawn(process.execPath, ['--import', tsx, bin, 'export', '--community', 'demo'], {
        cwd: dir,
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const watched = watch(child);
      await watched.waitFor(/\n/);
      child.stdout?.destroy();
      expect(await watched.exited).toBe(0);
      expect(watched.err).toBe('');
    } finally {
      await database.drop();
    }
  }, 60_000);
});
