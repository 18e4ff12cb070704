// Slack's Events API: acknowledgement latency (signed request → 200, envelope in the inbox) under a burst at a steady
// rate, Hearth serving in a child process with the applier running beside it as in `hearth serve`, against a bare
// node:http server in another child answering the same requests in the same run; then applications per second of a
// backlog applied by one process. `npx tsx bench/slack-events.ts [--rate 200] [--seconds 5] [--backlog 5000]
// [--ack-only] [--json]` (`--ack-only`: Hearth acknowledges with its applier off); DATABASE_URL picks the store (a temporary SQLite file by default).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
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
    json: { type: 'boolean', default: false },
    // Hearth acknowledges without applying (the applier off): the acknowledgement's own cost.
    'ack-only': { type: 'boolean', default: false },
    // Internal: this script as the child that serves (`--serve <url> <slug>`, or `--serve bare`).
    serve: { type: 'string' },
  },
  allowPositionals: true,
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const backlog = Number(values.backlog);
const SECRET = '3b1f6c0e9d2a4b7c8e5f60718293a4b5';
const CHANNEL = 'C01GENERAL';

/** What a serving child tells its parent: its port, then (asked with 'cpu') its CPU time so far in ms. */
type ChildMessage = { port: number } | { cpuMs: number };

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

// The child: a bare node:http server, or Hearth with its applier, answering on a port it tells the parent.
if (values.serve !== undefined) {
  const tell = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message) => {
    if (message === 'cpu') tell({ cpuMs: cpuMs() });
  });
  if (values.serve === 'bare') {
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const address = bare.address();
    tell({ port: typeof address === 'object' && address ? address.port : 0 });
  } else {
    const store = openStore(values.serve, 10);
    const config = loadConfig({}, { databaseUrl: values.serve, rateLimitPerSecond: 100_000, logLevel: 'silent' });
    const app = await buildApp(config, { store, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const applier = values['ack-only']
      ? null
      : startInboxApplier({
          store,
          writes: app.writes,
          clock: Date.now,
          apiFor: (token) => slackApi({ token, apiUrl: 'http://127.0.0.1:9/api/', retries: 0 }),
        });
    const running = applier;
    if (running) app.slackInbox.subscribe(() => running.wake());
    const address = app.server.address();
    tell({ port: typeof address === 'object' && address ? address.port : 0 });
    process.on('disconnect', () => {
      void Promise.resolve(applier?.stop())
        .then(() => app.close())
        .then(() => store.close())
        .then(() => process.exit(0));
    });
  }
} else {
  await main();
}

/** This script forked as a serving child; its port, and a way to read its CPU time. */
async function child(serve: string) {
  const proc = fork(
    new URL(import.meta.url).pathname,
    ['--serve', serve, ...(values['ack-only'] ? ['--ack-only'] : [])],
    { execArgv: process.execArgv },
  );
  const port = await new Promise<number>((resolve, reject) => {
    proc.once('message', (message: ChildMessage) => ('port' in message ? resolve(message.port) : reject()));
    proc.once('exit', (code) => reject(new Error(`the serving child exited with ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    cpuMs: () =>
      new Promise<number>((resolve) => {
        proc.once('message', (message: ChildMessage) => resolve('cpuMs' in message ? message.cpuMs : Number.NaN));
        proc.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.disconnect();
        setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

async function main(): Promise<void> {
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

  /** Sends `rate` requests a second for `seconds` (each on its schedule, not waiting for the last) to a child. */
  async function burst(server: Awaited<ReturnType<typeof child>>, path: string) {
    const agent = new Agent({ connections: 64 });
    const latencies: number[] = [];
    const total = rate * seconds;
    const cpuBefore = await server.cpuMs();
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const body = nextEnvelope();
      const sent = performance.now();
      inFlight.push(
        request(`${server.origin}${path}`, { method: 'POST', headers: headersOf(body), body, dispatcher: agent }).then(
          async (res) => {
            await res.body.dump();
            if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}`);
            latencies.push(performance.now() - sent);
          },
        ),
      );
    }
    await Promise.all(inFlight);
    const cpu = (await server.cpuMs()) - cpuBefore;
    await agent.close();
    return { sorted: latencies.sort((a, b) => a - b), cpuMsPerRequest: cpu / total };
  }

  // 1a. The bare baseline: node:http answering 200 to the same requests, in a child of its own.
  const bare = await child('bare');
  const baseline = await burst(bare, '/');
  await bare.stop();

  // 1b. Hearth's request URL in a child, the applier running beside it as in `hearth serve`.
  const hearth = await child(url);
  const acks = await burst(hearth, `/slack/events/${slug}`);
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
  // The burst applied by the applier beside it; with --ack-only, left for the backlog's application below.
  while (!values['ack-only'] && (await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await hearth.stop();

  // 2. Applications per second: a backlog written to the inbox at once, applied by this process alone.
  const config = loadConfig({}, { databaseUrl: url, rateLimitPerSecond: 100_000, logLevel: 'silent' });
  const app = await buildApp(config, { store, logger: false });
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
  const result = {
    store: store.dialect.name,
    load_average: loadavg().map((n) => Number(n.toFixed(2))),
    acknowledgement: {
      events_per_second: rate,
      events: acks.sorted.length,
      ...ack,
      p99_ratio_to_bare: Number((ack.p99_ms / bareSummary.p99_ms).toFixed(1)),
      cpu_ratio_to_bare: Number((ack.cpu_ms_per_request / bareSummary.cpu_ms_per_request).toFixed(1)),
      bare: bareSummary,
    },
    application: {
      events: backlog + (values['ack-only'] ? acks.sorted.length : 0),
      applied: counts.applied,
      seconds: Number(applySeconds.toFixed(2)),
      per_second: Math.round(counts.applied / applySeconds),
      cpu_ms_per_event: Number(((used.user + used.system) / 1000 / counts.applied).toFixed(3)),
    },
  };
  console.log(JSON.stringify(result, null, values.json ? undefined : 2));
}
