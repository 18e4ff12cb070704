// Webhook delivery in one process: lag (change to receipt) at a steady rate of event writes, and deliveries per
// second for a backlog. `npx tsx bench/webhooks.ts [--rate 50] [--seconds 10] [--backlog 5000]`;
// DATABASE_URL picks the store (a temporary SQLite file by default).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { createCommunitiesService } from '../src/communities/communities.service.js';
import { defaultConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { createEventWritesService } from '../src/events/event-writes.service.js';
import { toStored } from '../src/lib/timestamps.js';
import { importLines } from '../src/import/import.service.js';
import { startDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { enqueue } from '../src/webhooks/webhook-outbox.js';
import { webhooksOf } from '../src/webhooks/webhooks.repository.js';
import { createWriteRunner } from '../src/writes/write-runner.js';
import { refreshFragments } from '../src/rendering/fragment-refresh.js';
import { createWebhooksService } from '../src/webhooks/webhooks.service.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    backlog: { type: 'string', default: '5000' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const backlog = Number(values.backlog);

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-webhooks-'));
const url = process.env['DATABASE_URL'] || join(dir, 'hearth.db');
const store = openStore(url, 10);
await migrateToLatest(store.db, store.dialect);
const community = await createCommunitiesService(store.db, store.dialect).create(`bench-${Date.now()}`, 'Bench');
await importLines(store, community.id, [
  JSON.stringify({
    kind: 'profile',
    profile_id: '5b1c2d3e-0000-4000-8000-00000000000a',
    preferred_name: 'Ada',
    email: 'ada@example.com',
  }),
]);

// The receiver notes when each message arrives; the payload's timestamp is when its change began.
const arrivals = new Map<string, number>();
const lags: number[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const id = String(request.headers['webhook-id']);
    if (!arrivals.has(id)) {
      arrivals.set(id, Date.now());
      lags.push(Date.now() - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp));
    }
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const address = receiver.address();
const port = typeof address === 'object' && address ? address.port : 0;
await createWebhooksService(store.db).add(community.id, `http://127.0.0.1:${port}/hook`, { allowPrivate: true });

const config = { ...defaultConfig, webhookAllowPrivate: true };
const runner = createWriteRunner(store.db, Date.now, refreshFragments);
const dispatcher = startDispatcher({
  store,
  config,
  log: Fastify({ logger: { level: 'error' } }).log,
  onMessages: (wake) => runner.committed.subscribe((commit) => commit.messages > 0 && wake()),
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const waitFor = async (count: number) => {
  while (arrivals.size < count) await new Promise((resolve) => setTimeout(resolve, 5));
};

// 1. Lag: event writes through the service at a steady rate, each with its webhook message.
const writes = createEventWritesService(runner, store.dialect);
const actor = { communityId: community.id, tokenId: 'bench', requestId: 'bench' };
const total = rate * seconds;
const started = Date.now();
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / rate;
  if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
  await writes.create(actor, {
    title: `Bench event ${i}`,
    start_date: '2026-12-01T18:00:00Z',
    end_date: '2026-12-01T19:00:00Z',
    hosts: ['ada@example.com'],
    description: { text: 'bench' },
    triggers_webhooks: true,
  });
}
await waitFor(total);
const sorted = [...lags].sort((a, b) => a - b);

// 2. Throughput: a backlog of messages committed at once, sent as fast as one process sends.
const hooks = await webhooksOf(store.db, community.id);
const payload = { id: 'bench', note: 'x'.repeat(1500) };
const before = arrivals.size;
await store.db.transaction().execute((trx) =>
  enqueue(
    trx,
    community.id,
    hooks,
    Array.from({ length: backlog }, () => ({ type: 'calendar_event.updated' as const, data: payload })),
    toStored(Date.now()),
  ),
);
const backlogStart = Date.now();
dispatcher.wake();
await waitFor(before + backlog);
const backlogSeconds = (Date.now() - backlogStart) / 1000;

await dispatcher.stop();
receiver.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      store: store.dialect.name,
      lag: {
        writes_per_second: rate,
        messages: sorted.length,
        p50_ms: percentile(sorted, 50),
        p99_ms: percentile(sorted, 99),
        max_ms: sorted.at(-1),
      },
      backlog: {
        messages: backlog,
        seconds: backlogSeconds,
        deliveries_per_second: Math.round(backlog / backlogSeconds),
        concurrency: config.webhookConcurrency,
      },
    },
    null,
    2,
  ),
);
