// Slack's Events API in one process: acknowledgement latency (signed request → 200, envelope in the inbox) under a
// burst at a steady rate while the applier runs beside it, against a bare node:http server answering the same
// requests in the same run; then applications per second of a backlog. `npx tsx bench/slack-events.ts
// [--rate 200] [--seconds 5] [--backlog 5000]`; DATABASE_URL picks the store (a temporary SQLite file by default).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { buildApp } from '../src/app.js';
import { createCommunitiesService } from '../src/communities/communities.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { importLines } from '../src/import/import.service.js';
import { toStored } from '../src/lib/timestamps.js';
import { insertEnvelope } from '../src/slack-inbox/slack-inbox.repository.js';
import { createInboxApplier, startInboxApplier } from '../src/slack/inbox-applier.js';
import { createSlackConnectionsService } from '../src/slack/slack-connections.service.js';
import { feedIdOf, profileIdOf } from '../src/slack/slack-ids.js';
import { slackApi } from '../src/slack/web-api.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '5' },
    backlog: { type: 'string', default: '5000' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const backlog = Number(values.backlog);
const SECRET = '3b1f6c0e9d2a4b7c8e5f60718293a4b5';
const CHANNEL = 'C01GENERAL';

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-slack-'));
const url = process.env['DATABASE_URL'] || join(dir, 'hearth.db');
const store = openStore(url, 10);
await migrateToLatest(store.db, store.dialect);
const slug = `bench-${Date.now()}`;
const community = await createCommunitiesService(store.db, store.dialect).create(slug, 'Bench');
await createSlackConnectionsService(store.db).connect(community.id, {
  botToken: 'xoxb-1111-2222-benchtoken',
  signingSecret: SECRET,
});
await importLines(store, community.id, [
  JSON.stringify({
    kind: 'profile',
    profile_id: profileIdOf('U01ALICE'),
    preferred_name: 'alice',
    chat_user_id: 'U01ALICE',
  }),
  JSON.stringify({
    kind: 'feed',
    id: feedIdOf(CHANNEL),
    label: 'general',
    chat_channel_id: CHANNEL,
    chat_channel_name: 'general',
  }),
]);

let sequence = 0;
/** A new message event's envelope: a post with a sentence of text, as Slack sends them. */
function nextEnvelope(): string {
  sequence++;
  const ts = `${1_773_000_000 + sequence}.000100`;
  return JSON.stringify({
    token: 'x',
    team_id: 'T01ACME',
    api_app_id: 'A0HEARTH',
    type: 'event_callback',
    event_id: `EvBENCH${sequence}`,
    event_time: 1_773_000_000 + sequence,
    event: {
      type: 'message',
      channel: CHANNEL,
      user: 'U01ALICE',
      text: `Bench message ${sequence}: the garden needs water on Thursday, bring a can`,
      ts,
      event_ts: ts,
      channel_type: 'channel',
    },
  });
}

const headersOf = (body: string) => {
  const at = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': at,
    'x-slack-signature': `v0=${createHmac('sha256', SECRET).update(`v0:${at}:${body}`).digest('hex')}`,
  };
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Sends `rate` requests a second for `seconds` (each on its schedule, not waiting for the last); latencies in ms. */
async function burst(origin: string, path: string): Promise<{ sorted: number[]; cpuMsPerRequest: number }> {
  const agent = new Agent({ connections: 64 });
  const latencies: number[] = [];
  const total = rate * seconds;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = nextEnvelope();
    const sent = performance.now();
    inFlight.push(
      request(`${origin}${path}`, { method: 'POST', headers: headersOf(body), body, dispatcher: agent }).then(
        async (res) => {
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}`);
          latencies.push(performance.now() - sent);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const used = process.cpuUsage(cpu);
  await agent.close();
  return { sorted: latencies.sort((a, b) => a - b), cpuMsPerRequest: (used.user + used.system) / 1000 / total };
}

// 1a. The bare baseline: node:http answering 200 to the same requests, in this process.
const bare = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end());
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareAddress = bare.address();
const bareOrigin = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}`;
const baseline = await burst(bareOrigin, '/');
bare.close();

// 1b. Hearth's request URL, the applier running beside it as in `hearth serve`.
const config = loadConfig({}, { databaseUrl: url, rateLimitPerSecond: 100_000, logLevel: 'silent' });
const app = await buildApp(config, { store, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const appAddress = app.server.address();
const origin = `http://127.0.0.1:${typeof appAddress === 'object' && appAddress ? appAddress.port : 0}`;
const applier = startInboxApplier({
  store,
  writes: app.writes,
  clock: Date.now,
  apiFor: (token) => slackApi({ token, apiUrl: 'http://127.0.0.1:9/api/', retries: 0 }),
});
const unsubscribe = app.slackInbox.subscribe(() => applier.wake());
const acks = await burst(origin, `/slack/events/${slug}`);
// Until the burst's events are applied.
const pending = async () =>
  Number(
    (
      await store.db
        .selectFrom('slack_inbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow()
    ).n,
  );
while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
unsubscribe();
await applier.stop();

// 2. Applications per second: a backlog written to the inbox at once, applied by one process.
for (let i = 0; i < backlog; i++) {
  const envelope = nextEnvelope();
  await insertEnvelope(store.db, {
    id: `bench-${String(i).padStart(8, '0')}`,
    community_id: community.id,
    event_id: `EvBACKLOG${i}`,
    event_type: 'message',
    envelope,
    received_at: toStored(Date.now()),
  });
}
const oneShot = createInboxApplier({
  store,
  writes: app.writes,
  clock: Date.now,
  apiFor: (token) => slackApi({ token, apiUrl: 'http://127.0.0.1:9/api/', retries: 0 }),
});
const cpu = process.cpuUsage();
const applyStart = performance.now();
const counts = await oneShot.applyDue();
const applySeconds = (performance.now() - applyStart) / 1000;
const used = process.cpuUsage(cpu);

await app.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

const summary = (run: { sorted: number[]; cpuMsPerRequest: number }) => ({
  p50_ms: Number(percentile(run.sorted, 50).toFixed(2)),
  p99_ms: Number(percentile(run.sorted, 99).toFixed(2)),
  max_ms: Number((run.sorted.at(-1) ?? 0).toFixed(2)),
  cpu_ms_per_request: Number(run.cpuMsPerRequest.toFixed(3)),
});
const ack = summary(acks);
const bareSummary = summary(baseline);
console.log(
  JSON.stringify(
    {
      store: store.dialect.name,
      acknowledgement: {
        events_per_second: rate,
        events: acks.sorted.length,
        ...ack,
        p99_ratio_to_bare: Number((ack.p99_ms / bareSummary.p99_ms).toFixed(1)),
        cpu_ratio_to_bare: Number((ack.cpu_ms_per_request / bareSummary.cpu_ms_per_request).toFixed(1)),
        bare: bareSummary,
      },
      application: {
        events: backlog,
        applied: counts.applied,
        seconds: Number(applySeconds.toFixed(2)),
        per_second: Math.round(counts.applied / applySeconds),
        cpu_ms_per_event: Number(((used.user + used.system) / 1000 / backlog).toFixed(3)),
      },
    },
    null,
    2,
  ),
);
