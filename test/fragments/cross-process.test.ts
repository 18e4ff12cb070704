// Another process's changes reach a running server: an import by `hearth import` shows in the server's next
// request after its change check, and a token revoked by `hearth token revoke` is refused within a second.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { baseRecords } from '../../fixtures/community.js';
import { createTestDatabase } from '../helpers/test-store.js';
import { seedCommunity } from '../helpers/seed.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const cli = (args: string[], env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Runs a CLI command to its end; rejects with its output when it fails. */
function run(args: string[], env: Record<string, string>): Promise<string> {
  const child = cli(args, env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`hearth ${args[0]} exited ${code}: ${output}`)),
    ),
  );
}

describe('changes made by other processes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  let server: ChildProcess;
  let base: string;
  let token: { id: string; secret: string };
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-xproc-'));

  beforeAll(async () => {
    database = await createTestDatabase();
    store = openStore(database.url, 2);
    await migrateToLatest(store.db, store.dialect);
    const seeded = await seedCommunity(store, 'xproc', { name: 'Cross', records: baseRecords });
    token = { id: seeded.tokenId, secret: seeded.token };
    env = { DATABASE_URL: database.url };
    const port = await freePort();
    base = `http://127.0.0.1:${port}/admin/v0`;
    server = cli(['serve', '--port', String(port)], env);
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      server.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('Hearth serving')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`hearth serve exited ${code}: ${stderr}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await store.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(base + path, { headers: { authorization: `Bearer ${token.secret}` } });

  it("shows an import by `hearth import` in the server's next request", async () => {
    const before = await get('/calendar_events/evongoing001');
    expect(((await before.json()) as { data: { title: string } }).data.title).toBe('Office hours');
    const event = baseRecords.find((r) => 'id' in r && r.id === 'evongoing001');
    const file = join(dir, 'change.ndjson');
    writeFileSync(file, `${JSON.stringify({ ...event, title: 'Office hours (moved)' })}\n`);
    await run(['import', '--community', 'xproc', file], env);
    // The server checks for changes at most once a millisecond; the CLI's exit is already later than that.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const after = await get('/calendar_events/evongoing001');
    expect(((await after.json()) as { data: { title: string } }).data.title).toBe('Office hours (moved)');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  }, 60_000);

  it('refuses a token revoked by `hearth token revoke` within one second', async () => {
    expect((await get('/calendar_events/evongoing001')).status).toBe(200);
    await run(['token', 'revoke', token.id], env);
    const revokedAt = performance.now();
    let status = (await get('/calendar_events/evongoing001')).status;
    while (status === 200 && performance.now() - revokedAt < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (await get('/calendar_events/evongoing001')).status;
    }
    expect(status).toBe(401);
    expect(performance.now() - revokedAt).toBeLessThan(1100);
  }, 60_000);
});
