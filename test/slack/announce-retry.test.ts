// Announcements under failure, against a local stand-in of Slack's chat methods: a 429's Retry-After waited out
// before the post is sent; a post stored by Slack whose answer never came (a timeout, a 5xx) found by its metadata
// on the retry and never posted twice; repeated failures parked, listed by `hearth slack announcements --failed`
// and sent once retried.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createEventWritesService } from '../../src/events/event-writes.service.js';
import { startAnnouncer, type Announcer } from '../../src/slack/announcement-sender.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { ada, feedIds, feeds } from '../../fixtures/community.js';
import { CHAT_TOKEN, startChatStandIn, type ChatStandIn } from '../helpers/slack-chat-stand-in.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let slack: ChatStandIn;
let announcer: Announcer;
let acme: string;
let writer: string;

beforeAll(async () => {
  t = await createTestApp();
  slack = await startChatStandIn(['C0EVENTS01']);
  acme = await t.community('acme');
  await t.importRecords(acme, [...feeds, ada]);
  await createSlackConnectionsService(t.testStore.store.db).connect(acme, { botToken: CHAT_TOKEN, channels: 'all' });
  writer = await t.token(acme, ['read', 'events:write']);
  announcer = startAnnouncer({
    store: t.testStore.store,
    log: t.app.log,
    apiUrl: slack.url,
    recordPermalink: createEventWritesService(t.app.writes, t.testStore.store.dialect).recordPermalink,
    onAnnouncements: (wake) => t.app.writes.committed.subscribe((c) => c.announcements > 0 && wake()),
    pollMs: 30,
    timeoutMs: 1000,
    retryBaseMs: 100,
    maxAttempts: 3,
    random: () => 0,
  });
});
afterAll(async () => {
  await announcer?.stop();
  await slack?.close();
  await t?.close();
});
beforeEach(() => {
  slack.trouble = () => null;
  slack.calls.length = 0;
  slack.channels.set('C0EVENTS01', []);
});

async function publish(title: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v0/calendar_events',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      title,
      start_date: '2026-04-01T18:00:00Z',
      end_date: '2026-04-01T20:00:00Z',
      description: { text: 'Talks' },
      hosts: ['ada@example.com'],
      published_to: [feedIds.events],
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function rowOf(eventId: string) {
  return t.testStore.store.db
    .selectFrom('chat_announcements')
    .selectAll()
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
}

/** Waits until the event's announcement is in `state`. */
async function until(eventId: string, state: 'done' | 'failed', ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await rowOf(eventId);
    if (row.state === state) return row;
    if (Date.now() > deadline) throw new Error(`announcement ${row.state} after ${ms} ms: ${row.last_error}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const calls = () => slack.calls.map((c) => c.method);
const posted = () => slack.channels.get('C0EVENTS01') ?? [];

async function permalinkOf(eventId: string): Promise<string | null> {
  const res = await t.get(`/admin/v0/calendar_events/${eventId}`, writer);
  return res.json().data.published_to[0].chat_message_permalink;
}
const linkTo = (ts: string | undefined) => `https://acme.slack.com/archives/C0EVENTS01/p${ts?.replace('.', '')}`;

describe('a rate-limited post', () => {
  it("waits the 429's Retry-After, then posts once", async () => {
    slack.trouble = (call, nth) => (call.method === 'chat.postMessage' && nth === 1 ? { rateLimit: 1 } : null);
    const id = await publish('Rate limited');
    const row = await until(id, 'done');
    expect(calls()).toEqual(['chat.postMessage', 'chat.postMessage', 'chat.getPermalink']);
    const [first, second] = slack.calls;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(posted().length).toBe(1);
    // A 429 is not a failure: the attempt is not counted.
    expect({ attempts: row.attempts, uncertain: Boolean(row.uncertain), last_error: row.last_error }).toEqual({
      attempts: 0,
      uncertain: false,
      last_error: null,
    });
    expect(await permalinkOf(id)).toBe(linkTo(posted()[0]?.ts));
  });
});

describe('a post whose answer never came', () => {
  it('after a timeout (the post stored): the retry finds it by its metadata and posts nothing more', async () => {
    slack.trouble = (call, nth) =>
      call.method === 'chat.postMessage' && nth === 1 ? { doneThenSilentMs: 3000 } : null;
    const id = await publish('Timed out');
    await until(id, 'done');
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').length).toBe(1);
    expect(posted().length).toBe(1);
    expect(calls()).toEqual(['chat.postMessage', 'conversations.history', 'chat.update', 'chat.getPermalink']);
    const history = slack.calls[1]?.params;
    expect(history).toMatchObject({ channel: 'C0EVENTS01', include_all_metadata: 'true', limit: '200' });
    expect(Number(history?.oldest)).toBeGreaterThan(0);
    expect(slack.calls[2]?.params.ts).toBe(posted()[0]?.ts);
    expect(await permalinkOf(id)).toBe(linkTo(posted()[0]?.ts));
  });

  it('after a 5xx (the post stored): the same', async () => {
    slack.trouble = (call, nth) => (call.method === 'chat.postMessage' && nth === 1 ? { doneThenStatus: 503 } : null);
    const id = await publish('Server error');
    await until(id, 'done');
    expect(calls()).toEqual(['chat.postMessage', 'conversations.history', 'chat.update', 'chat.getPermalink']);
    expect(posted().length).toBe(1);
  });

  it('and when the search finds no earlier post (it never arrived), posts it then', async () => {
    slack.trouble = (call, nth) => (call.method === 'chat.postMessage' && nth === 1 ? { error: 'fatal_error' } : null);
    // Slack answered an error: nothing was posted, so no search is needed either.
    const id = await publish('Refused once');
    await until(id, 'done');
    expect(calls()).toEqual(['chat.postMessage', 'chat.postMessage', 'chat.getPermalink']);
    expect(posted().length).toBe(1);
  });
});

describe('two senders on one store', () => {
  it('post each announcement once', async () => {
    const second = startAnnouncer({
      store: t.testStore.store,
      log: t.app.log,
      apiUrl: slack.url,
      recordPermalink: createEventWritesService(t.app.writes, t.testStore.store.dialect).recordPermalink,
      onAnnouncements: (wake) => t.app.writes.committed.subscribe((c) => c.announcements > 0 && wake()),
      pollMs: 10,
      timeoutMs: 1000,
    });
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => publish(`Twice claimed ${i}`)));
      for (const id of ids) await until(id, 'done');
      const announced = posted().map(
        (m) => (m.metadata as { event_payload: { event_id: string } }).event_payload.event_id,
      );
      expect(announced.sort()).toEqual([...ids].sort());
      expect(slack.calls.filter((c) => c.method === 'chat.postMessage').length).toBe(12);
    } finally {
      await second.stop();
    }
  });
});

describe('repeated failures', () => {
  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      args,
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { DATABASE_URL: t.testStore.url },
      { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
    );
    return { code, out, err };
  }

  it('park the announcement, shown by `hearth slack announcements --failed`; --retry sends it', async () => {
    slack.trouble = (call) => (call.method === 'chat.postMessage' ? { error: 'not_in_channel' } : null);
    const id = await publish('Bot not invited');
    const row = await until(id, 'failed');
    expect(calls()).toEqual(['chat.postMessage', 'chat.postMessage', 'chat.postMessage']);
    expect({ attempts: row.attempts, last_error: row.last_error, uncertain: Boolean(row.uncertain) }).toEqual({
      attempts: 3,
      last_error: "chat.postMessage: Slack answered 'not_in_channel'",
      uncertain: false,
    });
    expect(await run(['slack', 'announcements', '--failed'])).toEqual({
      code: 0,
      out: [
        'community\tevent\tchannel\twanted\tstate\tattempts\tlast_error',
        `acme\t${id}\tC0EVENTS01\tshown\tfailed\t3\tchat.postMessage: Slack answered 'not_in_channel'`,
      ],
      err: [],
    });

    slack.trouble = () => null;
    expect(await run(['slack', 'announcements', '--retry', '--community', 'acme', '--event', id])).toEqual({
      code: 0,
      out: ["1 parked announcement of 'acme' due again; a running hearth serve sends it."],
      err: [],
    });
    await until(id, 'done');
    expect(posted().length).toBe(1);
    expect(await run(['slack', 'announcements', '--failed'])).toEqual({
      code: 0,
      out: ['No parked announcements.'],
      err: [],
    });
  });
});
