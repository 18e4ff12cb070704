// Webhooks across real `hearth serve` processes: a dispatcher killed with SIGKILL mid-delivery is replaced and
// every message still arrives with its webhook-id; two processes on one store deliver each message once.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { createWebhooksService, newSecret } from '../../src/webhooks/webhooks.service.js';
import { baseRecords } from '../../fixtures/community.js';
import { freePort, root } from '../helpers/processes.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { seedCommunity } from '../helpers/seed.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let store: Store;
let token: string;
let receiver: Receiver;
const children = new Set<ChildProcess>();
const secret = newSecret();

interface Hearth {
  child: ChildProcess;
  url: string;
}

async function startHearth(): Promise<Hearth> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', String(port)], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // A claim lasts the timeout plus 5 s: a killed process's messages are sent again within ~6.5 s.
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_POLL_MS: '100',
      RATE_LIMIT_PER_SECOND: '10000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Hearth serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`hearth exited with ${code}: ${stderr}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function createEvent(base: string, title: string): Promise<string> {
  const res = await fetch(`${base}/admin/v0/calendar_events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title,
      start_date: '2026-12-01T18:00:00Z',
      end_date: '2026-12-01T19:00:00Z',
      hosts: ['ada@example.com'],
      description: { text: title },
      triggers_webhooks: true,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

const messages = () => store.db.selectFrom('webhook_messages').select(['id', 'state']).orderBy('id').execute();

async function allDelivered(count: number, timeoutMs = 30_000): Promise<{ id: string; state: string }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await messages();
    if (rows.length === count && rows.every((row) => row.state === 'delivered')) return rows;
    if (Date.now() > deadline) throw new Error(`not all delivered: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  store = openStore(database.url, 2);
  await migrateToLatest(store.db, store.dialect);
  const acme = await seedCommunity(store, 'acme', {
    name: 'Acme',
    records: baseRecords,
    scopes: ['read', 'events:write'],
  });
  token = acme.token;
  receiver = await startReceiver(secret);
  await createWebhooksService(store.db).add(acme.community, receiver.url, {
    secret,
    events: 'calendar_event.*',
    allowPrivate: true,
  });
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  await store.db.deleteFrom('webhook_messages').execute();
  receiver.received.length = 0;
});
afterAll(async () => {
  await receiver.close();
  await store.close();
  await database.drop();
});

describe('dispatchers in hearth serve processes', () => {
  it('resumes after SIGKILL mid-delivery: every message arrives, the interrupted ones again with the same webhook-id', async () => {
    // Every first attempt hangs, so the process dies with all three messages in flight.
    const seen = new Set<string>();
    receiver.respond = (request) => {
      if (seen.has(request.id)) return 204;
      seen.add(request.id);
      return 'hang';
    };
    const first = await startHearth();
    for (const title of ['Killed one', 'Killed two', 'Killed three']) await createEvent(first.url, title);
    await receiver.waitFor(3);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect((await messages()).map((m) => m.state)).toEqual(['pending', 'pending', 'pending']);

    await startHearth();
    const rows = await allDelivered(3);
    const ids = rows.map((row) => row.id).sort();
    const got = receiver.received.map((r) => r.id);
    expect([...new Set(got)].sort()).toEqual(ids);
    // Each message went out twice: once to the killed process, once after its claim ran out.
    expect(got.length).toBe(6);
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.verified?.data['title'])).size).toBe(3);
  });

  // Two writing processes are a PostgreSQL deployment: SQLite's deferred transactions refuse a second writer.
  it.runIf(testDatabaseUrl)('two processes on one PostgreSQL deliver each message once', async () => {
    receiver.respond = () => 204;
    const [a, b] = await Promise.all([startHearth(), startHearth()]);
    // Two writes at a time, one through each process (writes to one community serialise on its version row anyway).
    for (let i = 0; i < 40; i += 2)
      await Promise.all([createEvent(a.url, `Shared ${i}`), createEvent(b.url, `Shared ${i + 1}`)]);
    const rows = await allDelivered(40);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = new Map<string, number>();
    for (const r of receiver.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(rows.map((row) => row.id).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const attempts = await store.db.selectFrom('webhook_deliveries').select('message_id').execute();
    expect(attempts.length).toBe(40);
  });
});
