// Slack announcements in one process: CPU per event write without a Slack connection (the bare baseline), with one
// but no channel, and published to a connected channel (the announcement recorded in the write); then how fast the
// announcer drains a backlog to a local stand-in of Slack's chat methods (post, permalink, the permalink's write).
// `npx tsx bench/slack-announce.ts [--writes 300] [--backlog 200]`; DATABASE_URL picks the store (SQLite by default).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { createCommunitiesService } from '../src/communities/communities.service.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { createEventWritesService } from '../src/events/event-writes.service.js';
import { importLines } from '../src/import/import.service.js';
import { refreshFragments } from '../src/rendering/fragment-refresh.js';
import { startAnnouncer } from '../src/slack/announcement-sender.js';
import { createSlackConnectionsService } from '../src/slack/slack-connections.service.js';
import { sourceActor } from '../src/writes/actor.js';
import { createWriteRunner } from '../src/writes/write-runner.js';
import { CHAT_TOKEN, startChatStandIn } from '../test/helpers/slack-chat-stand-in.js';

const { values } = parseArgs({
  options: { writes: { type: 'string', default: '300' }, backlog: { type: 'string', default: '200' } },
});
const writes = Number(values.writes);
const backlog = Number(values.backlog);

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-announce-'));
const store = openStore(process.env['DATABASE_URL'] || join(dir, 'hearth.db'), 10);
await migrateToLatest(store.db, store.dialect);
const runner = createWriteRunner(store.db, Date.now, refreshFragments);
const events = createEventWritesService(runner, store.dialect);
const FEED = '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002';

async function community(connected: boolean) {
  const { id } = await createCommunitiesService(store.db, store.dialect).create(
    `bench-${Date.now()}-${connected}`,
    'B',
  );
  await importLines(
    store,
    id,
    [
      { kind: 'feed', id: FEED, label: 'Events', chat_channel_id: 'C0EVENTS01', created_at: '2025-01-01T00:00:00Z' },
      {
        kind: 'profile',
        profile_id: '5b1c2d3e-0000-4000-8000-00000000000a',
        preferred_name: 'Ada',
        email: 'ada@example.com',
      },
    ].map((r) => JSON.stringify(r)),
  );
  if (connected) await createSlackConnectionsService(store.db).connect(id, { botToken: CHAT_TOKEN });
  return id;
}

const body = (i: number, published: boolean) => ({
  title: `Meetup ${i}`,
  start_date: '2026-04-01T18:00:00Z',
  end_date: '2026-04-01T20:00:00Z',
  hosts: ['ada@example.com'],
  description: { text: 'Talks' },
  published_to: published ? [FEED] : [],
});

/** CPU microseconds per write and writes per second for `n` creates. */
async function measure(communityId: string, published: boolean, n: number) {
  const actor = sourceActor(communityId, 'cli');
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) await events.create(actor, body(i, published));
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  return { cpu_us_per_write: Math.round((used.user + used.system) / n), writes_per_s: Math.round((n / ms) * 1000) };
}

const bare = await community(false);
const connected = await community(true);
await measure(bare, true, 50); // warm-up
const rows = {
  'no connection (baseline)': await measure(bare, true, writes),
  'connected, no channel feed': await measure(connected, false, writes),
  'connected, published to a channel': await measure(connected, true, writes),
};
const base = rows['no connection (baseline)'].cpu_us_per_write;
for (const [name, row] of Object.entries(rows))
  console.log(
    `${name}: ${row.cpu_us_per_write} µs CPU/write (×${(row.cpu_us_per_write / base).toFixed(2)}), ${row.writes_per_s} writes/s`,
  );

// Drain: the backlog already recorded, then the announcer started; time until every row is done.
const slack = await startChatStandIn(['C0EVENTS01']);
const drainCommunity = await community(true);
for (let i = 0; i < backlog; i++) await events.create(sourceActor(drainCommunity, 'cli'), body(i, true));
const cpu = process.cpuUsage();
const started = performance.now();
const announcer = startAnnouncer({
  store,
  log: Fastify({ logger: { level: 'error' } }).log,
  apiUrl: slack.url,
  recordPermalink: events.recordPermalink,
  pollMs: 20,
});
for (;;) {
  const left = await store.db
    .selectFrom('chat_announcements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  if (Number(left.n) === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
console.log(
  `drain: ${backlog} announcements (post + permalink + permalink write) in ${Math.round(ms)} ms, ${Math.round((backlog / ms) * 1000)}/s, ${Math.round((used.user + used.system) / backlog)} µs CPU each (the stand-in in the same process)`,
);
await announcer.stop();
await slack.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
