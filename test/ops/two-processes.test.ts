// Several Hearth processes on one PostgreSQL and one Redis: migrations run once when both start
// together, and rate limits and idempotency keys hold across them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { openStore, type Store } from '../../src/db/store.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';
import { seedCommunity } from '../helpers/seed.js';

const redisUrl = process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const runs = Boolean(testDatabaseUrl) && (await redisAnswers());

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function startHearth(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', String(port)], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Hearth serving')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`hearth exited with ${code}: ${stderr}`)));
  });
}

describe.runIf(runs)('two Hearth processes on one PostgreSQL and one Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let store: Store;
  const children: ChildProcess[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    ports.push(await freePort(), await freePort());
    const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl, RATE_LIMIT_PER_SECOND: '6' };
    // Both start at once on an empty database: the migration lock makes one of them migrate.
    children.push(...(await Promise.all(ports.map((port) => startHearth(env, port)))));
    store = openStore(database.url, 2);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
      ),
    );
    await store?.close();
    await database?.drop();
  });

  it('started both on an empty database, every migration applied once (a second run would have failed)', async () => {
    // Without the migration lock the second process would hit "table already exists" and exit.
    expect(children.map((child) => child.exitCode)).toEqual([null, null]);
    const applied = (await store.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute()) as { name: string }[];
    // Migrations are the numbered files; the folder also holds their frozen helpers (column types).
    const written = readdirSync(new URL('../../src/db/migrations/', import.meta.url))
      .filter((file) => /^\d{3}-.*\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(written).toContain('001-initial');
    expect(applied.map((r) => r.name).sort()).toEqual(written.sort());
    const ready = await Promise.all(
      ports.map((port) => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status)),
    );
    expect(ready).toEqual([200, 200]);
  });

  it('shares one rate limit per token across both processes', async () => {
    const sharing = async (port: number | undefined) =>
      ((await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { redis?: string }).redis;
    // A Redis call past its 30 ms deadline (a busy machine) is counted in-process, by design: a burst during which a
    // process fell back measured that, not the shared count, and is made again with a new token.
    for (let attempt = 1; ; attempt++) {
      for (const port of ports) {
        for (let tries = 0; tries < 50 && (await sharing(port)) !== 'ok'; tries++)
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { token } = await seedCommunity(store, `shared-${attempt}`, { name: 'Shared' });
      const urls = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:${ports[i % 2]}/admin/v0/calendar_events`);
      const answers = await Promise.all(
        urls.map((url) => fetch(url, { headers: { authorization: `Bearer ${token}` } })),
      );
      const shared = (await Promise.all(ports.map(sharing))).every((state) => state === 'ok');
      if (!shared && attempt < 5) continue;
      expect(shared).toBe(true);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
      const remaining = answers
        .filter((r) => r.status === 200)
        .map((r) => r.headers.get('ratelimit-remaining'))
        .sort();
      expect(remaining).toEqual(['0', '1', '2', '3', '4', '5']);
      return;
    }
  });

  it('replays an idempotent add-member on the other process', async () => {
    const { community, token } = await seedCommunity(store, 'idem', { name: 'Idem', scopes: ['members:write'] });
    const post = (port: number | undefined) =>
      fetch(`http://127.0.0.1:${port}/admin/v0/members`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': 'signup-42',
        },
        body: JSON.stringify({ email: 'lin@example.com', full_name: 'Lin Chen' }),
      });
    const first = await post(ports[0]);
    const firstBody = await first.json();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await post(ports[1]);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(firstBody);
    const members = await store.db.selectFrom('profiles').select('id').where('community_id', '=', community).execute();
    expect(members).toHaveLength(1);
  });
});
