// The inbox across real `hearth serve` processes: one killed with SIGKILL after acknowledging an event (while its
// application waits on Slack's Web API) leaves it to the next process, which applies it once its claim runs out;
// two processes on one PostgreSQL store, each sent a burst of 1,000 events and every event twice, apply each once.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { feedIdOf, messageIdOf } from '../../src/slack/slack-ids.js';
import { importLines } from '../../src/import/import.service.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { envelope, SIGNING_SECRET, signed } from '../helpers/slack-events.js';
import { freePort, root, watch } from '../helpers/processes.js';
import { STAND_IN_TOKEN, startStandIn, type StandIn } from '../helpers/slack-stand-in.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

const bin = join(root, 'src/cli/bin.ts');
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const GENERAL = 'C01GENERAL';

let store: TestStore;
let slack: StandIn;
let communityId: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  store = await createTestStore();
  slack = await startStandIn();
  const { db, dialect } = store.store;
  communityId = (await createCommunitiesService(db, dialect).create('acme', 'Acme')).id;
  await createSlackConnectionsService(db).connect(communityId, {
    botToken: STAND_IN_TOKEN,
    signingSecret: SIGNING_SECRET,
  });
  await importLines(store.store, communityId, [
    JSON.stringify({
      kind: 'feed',
      id: feedIdOf(GENERAL),
      label: 'general',
      chat_channel_id: GENERAL,
      chat_channel_name: 'general',
    }),
  ]);
}, 60_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await slack?.close();
  await store?.cleanup();
});

async function serve(port: number, apiUrl: string) {
  const child = spawn(process.execPath, ['--import', tsx, bin, 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: store.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      SLACK_API_URL: apiUrl,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      RATE_LIMIT_PER_SECOND: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const watched = watch(child);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${watched.err}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, watched, port };
}

async function sendTo(port: number, body: Record<string, unknown>): Promise<number> {
  const payload = JSON.stringify(body);
  const res = await fetch(`http://127.0.0.1:${port}/slack/events/acme`, {
    method: 'POST',
    headers: signed(SIGNING_SECRET, Math.floor(Date.now() / 1000), payload),
    body: payload,
  });
  await res.arrayBuffer();
  return res.status;
}

const message = (ts: string, text: string, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  channel: GENERAL,
  user: 'U01ALICE',
  text,
  ts,
  event_ts: ts,
  ...extra,
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const inboxRows = () =>
  store.store.db
    .selectFrom('slack_inbox')
    .select(['event_id', 'state', 'attempts', 'claimed_until', 'outcome'])
    .orderBy('id')
    .execute();

describe('hearth serve applies the inbox', () => {
  it('applies after a restart an event acknowledged by a process killed with SIGKILL before applying it', async () => {
    // A Web API that takes the request and never answers: the first process stays inside the application.
    const asked: string[] = [];
    const silent = createServer((req) => asked.push(req.url ?? ''));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/`;
    const now = Math.floor(Date.now() / 1000);
    const parent = `${now - 60}.000100`;
    const reply = `${now}.000200`;
    slack.messages.set(GENERAL, [
      { type: 'message', user: 'U02BOB', text: 'A thread from before', ts: parent, thread_ts: parent },
      { type: 'message', user: 'U01ALICE', text: 'The reply', ts: reply, thread_ts: parent },
    ]);
    try {
      const first = await serve(await freePort(), silentUrl);
      expect(await sendTo(first.port, envelope(message(reply, 'The reply', { thread_ts: parent }), 'EvKILLED'))).toBe(
        200,
      );
      await until(
        async () => asked.length,
        (n) => n > 0,
        20_000,
      );
      expect(asked).toEqual(['/api/conversations.replies']);
      first.child.kill('SIGKILL');
      await first.watched.exited;
      const held = await inboxRows();
      expect(held.map(({ event_id, state, attempts, outcome }) => ({ event_id, state, attempts, outcome }))).toEqual([
        { event_id: 'EvKILLED', state: 'pending', attempts: 0, outcome: null },
      ]);
      expect(held[0]?.claimed_until).not.toBeNull();
    } finally {
      silent.close();
    }
    const second = await serve(await freePort(), slack.url);
    // The claim of the killed process runs out (30 s), then the event is applied once.
    const rows = await until(inboxRows, (r) => r[0]?.state === 'done', 60_000);
    expect(rows.map(({ event_id, state, attempts, outcome }) => ({ event_id, state, attempts, outcome }))).toEqual([
      { event_id: 'EvKILLED', state: 'done', attempts: 1, outcome: 'applied' },
    ]);
    const comment = await store.store.db
      .selectFrom('comments')
      .select(['post_id', 'body_plaintext'])
      .where('id', '=', messageIdOf(GENERAL, reply))
      .execute();
    expect(comment).toEqual([{ post_id: messageIdOf(GENERAL, parent), body_plaintext: 'The reply' }]);
    second.child.kill('SIGTERM');
    await second.watched.exited;
  }, 150_000);

  it.skipIf(!testDatabaseUrl)(
    'applies each of 1,000 events sent to two processes on one PostgreSQL store (each event sent to both) once',
    async () => {
      const [a, b] = await Promise.all([serve(await freePort(), slack.url), serve(await freePort(), slack.url)]);
      const base = Math.floor(Date.now() / 1000) - 3600;
      const events = Array.from({ length: 1000 }, (_, i) =>
        envelope(message(`${base + i}.000300`, `Burst message number ${i}`), `EvBURST${String(i).padStart(5, '0')}`),
      );
      // Each event to one process, then its retry to the other, 20 requests at a time.
      const sends = events.flatMap((event, i) => [
        [i % 2 === 0 ? a.port : b.port, event] as const,
        [i % 2 === 0 ? b.port : a.port, event] as const,
      ]);
      const statuses: number[] = [];
      for (let i = 0; i < sends.length; i += 20)
        statuses.push(...(await Promise.all(sends.slice(i, i + 20).map(([port, event]) => sendTo(port, event)))));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      const count = (state: 'pending' | 'done' | 'parked') =>
        store.store.db
          .selectFrom('slack_inbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('event_id', 'like', 'EvBURST%')
          .where('state', '=', state)
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.n));
      expect(
        await until(
          () => count('done'),
          (n) => n === 1000,
          120_000,
        ),
      ).toBe(1000);
      const attempts = await store.store.db
        .selectFrom('slack_inbox')
        .select(['attempts', (eb) => eb.fn.countAll<number>().as('n')])
        .where('event_id', 'like', 'EvBURST%')
        .groupBy('attempts')
        .execute();
      expect(attempts.map((row) => [Number(row.attempts), Number(row.n)])).toEqual([[1, 1000]]);
      const audits = await store.store.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('action', '=', 'slack.event_applied')
        .where('subject_id', 'like', 'EvBURST%')
        .executeTakeFirstOrThrow();
      expect(Number(audits.n)).toBe(1000);
      const posts = await store.store.db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('body_plaintext', 'like', 'Burst message number %')
        .executeTakeFirstOrThrow();
      expect(Number(posts.n)).toBe(1000);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      await Promise.all([a.watched.exited, b.watched.exited]);
    },
    240_000,
  );
});
