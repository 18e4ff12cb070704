// Announcements of calendar events in their feeds' Slack channels, against a local stand-in of Slack's chat methods:
// the post with its exact blocks and metadata, the permalink written back (GET answers it under a new ETag), edits
// of the same message on update, unpublishing and deletion, and nothing sent for a draft, a feed without a
// channel, a community without a connection, or a change that rolled back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEventWritesService } from '../../src/events/event-writes.service.js';
import { startAnnouncer, type Announcer } from '../../src/slack/announcement-sender.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { sourceActor } from '../../src/writes/actor.js';
import { ada, baseRecords, feedIds, feeds } from '../../fixtures/community.js';
import { CHAT_TOKEN, startChatStandIn, type ChatStandIn } from '../helpers/slack-chat-stand-in.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { auditOf, outboxOf } from '../helpers/write-requests.js';

let t: TestApp;
let slack: ChatStandIn;
let announcer: Announcer;
let acme: string;
let writer: string;

beforeAll(async () => {
  t = await createTestApp();
  slack = await startChatStandIn(['C0EVENTS01', 'C0GENERAL1']);
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
  });
});
afterAll(async () => {
  await announcer?.stop();
  await slack?.close();
  await t?.close();
});
beforeEach(async () => {
  await settled();
  slack.trouble = () => null;
  slack.calls.length = 0;
});

const path = '/admin/v0/calendar_events';
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = writer) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const spring = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  timezone: 'America/Los_Angeles',
  location: 'Hall 3 <east> & garden',
  link: 'https://example.com/spring',
  hosts: ['ada@example.com'],
  description: { text: 'Talks and pizza' },
  published_to: [feedIds.events],
};

/** Waits until no announcement is waiting to be sent (or the deadline passes). */
async function settled(ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const waiting = await t.testStore.store.db
      .selectFrom('chat_announcements')
      .select('event_id')
      .where('state', '=', 'pending')
      .execute();
    if (waiting.length === 0) return;
    if (Date.now() > until) throw new Error(`announcements still pending after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const calls = () => slack.calls.map((c) => c.method);
const params = (method: string, nth = 0) => {
  const found = slack.calls.filter((c) => c.method === method)[nth];
  if (!found) throw new Error(`no call ${nth} of ${method}`);
  return found.params;
};
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const when = 'Wed, 1 Apr 2026, 18:00–20:00 (America/Los_Angeles)';
const springBlocks = (title = 'Spring meetup') => [
  { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
  section(`*When:* ${when}`),
  section('*Where:* Hall 3 &lt;east&gt; &amp; garden'),
  section('*Link:* <https://example.com/spring|https://example.com/spring>'),
];

async function created(body: object = spring): Promise<{ id: string; etag: string }> {
  const res = await send('POST', path, body);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.id, etag: String(res.headers.etag) };
}

describe('an event published to a connected channel', () => {
  it('is posted with its blocks and metadata, and its permalink answered under a new ETag', async () => {
    const { id, etag } = await created();
    await settled();
    expect(calls()).toEqual(['chat.postMessage', 'chat.getPermalink']);
    const post = params('chat.postMessage');
    expect(post.channel).toBe('C0EVENTS01');
    expect(post.text).toBe(`Spring meetup — ${when}`);
    expect(JSON.parse(post.blocks ?? '')).toEqual(springBlocks());
    expect(JSON.parse(post.metadata ?? '')).toEqual({
      event_type: 'hearth_event_announced',
      event_payload: { community: acme, event_id: id },
    });
    const [message] = slack.channels.get('C0EVENTS01') ?? [];
    expect(params('chat.getPermalink')).toEqual({ channel: 'C0EVENTS01', message_ts: message?.ts });
    const permalink = `https://acme.slack.com/archives/C0EVENTS01/p${message?.ts.replace('.', '')}`;

    const got = await t.get(`${path}/${id}`, writer);
    expect(got.statusCode).toBe(200);
    expect(got.json().data.published_to).toEqual([
      { chat_channel_id: 'C0EVENTS01', chat_message_permalink: permalink, feed_id: feedIds.events },
    ]);
    expect(got.headers.etag).not.toBe(etag);
    // A client holding the answer from before the link is told it changed.
    expect((await t.get(`${path}/${id}`, writer, { 'if-none-match': etag })).statusCode).toBe(200);
    expect((await t.get(`${path}/${id}`, writer, { 'if-none-match': String(got.headers.etag) })).statusCode).toBe(304);
    const audit = (await auditOf(t, acme)).filter((a) => a.subject_id === id);
    // Both at the test clock's one instant: compared as a set.
    expect(audit.map((a) => a.action).sort()).toEqual(['calendar_event.created', 'calendar_event.updated']);
  });

  it('is edited in place on update (chat.update, same ts); an update nothing shows changes nothing', async () => {
    const { id } = await created();
    await settled();
    const ts = slack.channels.get('C0EVENTS01')?.at(-1)?.ts;
    slack.calls.length = 0;
    expect((await send('PATCH', `${path}/${id}`, { title: 'Spring meetup, moved' })).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual(['chat.update']);
    expect(params('chat.update').ts).toBe(ts);
    expect(params('chat.update').channel).toBe('C0EVENTS01');
    expect(JSON.parse(params('chat.update').blocks ?? '')).toEqual(springBlocks('Spring meetup, moved'));
    expect(slack.channels.get('C0EVENTS01')?.at(-1)?.text).toBe(`Spring meetup, moved — ${when}`);

    slack.calls.length = 0;
    expect((await send('PATCH', `${path}/${id}`, { description: { text: 'Talks only' } })).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual([]);
    // The permalink survives an update that names the same feed again.
    expect((await send('PATCH', `${path}/${id}`, { published_to: [feedIds.events] })).statusCode).toBe(200);
    const got = await t.get(`${path}/${id}`, writer);
    expect(got.json().data.published_to[0].chat_message_permalink).toMatch(/^https:\/\/acme\.slack\.com\/archives\//);
    await settled();
    expect(calls()).toEqual([]);
  });

  it('is edited to say it was cancelled when the event is deleted', async () => {
    const { id } = await created();
    await settled();
    const ts = slack.channels.get('C0EVENTS01')?.at(-1)?.ts;
    slack.calls.length = 0;
    expect((await send('DELETE', `${path}/${id}`)).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual(['chat.update']);
    expect(params('chat.update').ts).toBe(ts);
    expect(params('chat.update').text).toBe(`Cancelled: Spring meetup — ${when}`);
    expect(JSON.parse(params('chat.update').blocks ?? '')).toEqual([
      section(`~Spring meetup~\n${when}`),
      section('*This event has been cancelled.*'),
    ]);
  });

  it('is withdrawn when unpublished or taken off the feed, and posted in each channel it is published to', async () => {
    const { id } = await created({ ...spring, published_to: [feedIds.events, feedIds.general] });
    await settled();
    expect(calls().sort()).toEqual(['chat.getPermalink', 'chat.getPermalink', 'chat.postMessage', 'chat.postMessage']);
    const got = (await t.get(`${path}/${id}`, writer)).json().data;
    expect(got.published_to.map((p: { chat_message_permalink: string }) => p.chat_message_permalink)).toEqual([
      `https://acme.slack.com/archives/C0EVENTS01/p${slack.channels.get('C0EVENTS01')?.at(-1)?.ts.replace('.', '')}`,
      `https://acme.slack.com/archives/C0GENERAL1/p${slack.channels.get('C0GENERAL1')?.at(-1)?.ts.replace('.', '')}`,
    ]);

    slack.calls.length = 0;
    expect((await send('PATCH', `${path}/${id}`, { published_to: [feedIds.events] })).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual(['chat.update']);
    expect(params('chat.update').channel).toBe('C0GENERAL1');
    expect(JSON.parse(params('chat.update').blocks ?? '')).toEqual([
      section(`~Spring meetup~\n${when}`),
      section('*This event is no longer announced in this channel.*'),
    ]);

    slack.calls.length = 0;
    expect((await send('PATCH', `${path}/${id}`, { status: 'needs_approval' })).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual(['chat.update']);
    expect(params('chat.update').channel).toBe('C0EVENTS01');
    expect(params('chat.update').text).toBe(`Withdrawn: Spring meetup — ${when}`);

    // Published again: the same message shows the event again.
    slack.calls.length = 0;
    expect((await send('PATCH', `${path}/${id}`, { status: 'published' })).statusCode).toBe(200);
    await settled();
    expect(calls()).toEqual(['chat.update']);
    expect(JSON.parse(params('chat.update').blocks ?? '')).toEqual(springBlocks());
  });
});

describe("the permalink's write", () => {
  it("is sent to Hearth's webhooks as calendar_event.updated when the event triggers them", async () => {
    const hooked = await t.community('hooked');
    await t.importRecords(hooked, [...feeds, ada]);
    await createSlackConnectionsService(t.testStore.store.db).connect(hooked, { botToken: CHAT_TOKEN });
    await createWebhooksService(t.testStore.store.db).add(hooked, 'http://127.0.0.1:9/hook', { allowPrivate: true });
    const token = await t.token(hooked, ['read', 'events:write']);
    const res = await send('POST', path, { ...spring, triggers_webhooks: true }, token);
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    await settled();
    const permalink = `https://acme.slack.com/archives/C0EVENTS01/p${slack.channels.get('C0EVENTS01')?.at(-1)?.ts.replace('.', '')}`;
    const sent = (await outboxOf(t, hooked)) as { type: string; data: { id: string; published_to: unknown[] } }[];
    expect(sent.map((m) => [m.type, m.data.id, m.data.published_to]).sort()).toEqual([
      [
        'calendar_event.created',
        id,
        [{ chat_channel_id: 'C0EVENTS01', chat_message_permalink: null, feed_id: feedIds.events }],
      ],
      [
        'calendar_event.updated',
        id,
        [{ chat_channel_id: 'C0EVENTS01', chat_message_permalink: permalink, feed_id: feedIds.events }],
      ],
    ]);
  });
});

describe('nothing is sent', () => {
  it('for a draft, a feed without a channel, or a community without a connection', async () => {
    await created({ ...spring, status: 'needs_approval' });
    await created({ ...spring, published_to: [feedIds.unlisted] });
    const other = await t.community('other');
    await t.importRecords(other, [...feeds, ada]);
    const otherWriter = await t.token(other, ['read', 'events:write']);
    expect((await send('POST', path, spring, otherWriter)).statusCode).toBe(201);
    // Long enough for several polls.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await settled();
    expect(calls()).toEqual([]);
  });

  it('for an imported event whose message Hearth did not post (its permalink kept)', async () => {
    const imported = await t.community('imported');
    await t.importRecords(imported, baseRecords);
    await createSlackConnectionsService(t.testStore.store.db).connect(imported, { botToken: CHAT_TOKEN });
    const token = await t.token(imported, ['read', 'events:write']);
    const res = await send('PATCH', `${path}/evdstcross01`, { title: 'Weekend Hack, renamed' }, token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.published_to).toEqual([
      {
        chat_channel_id: 'C0EVENTS01',
        chat_message_permalink: 'https://chat.example.com/archives/C0EVENTS01/p1',
        feed_id: feedIds.events,
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await settled();
    expect(calls()).toEqual([]);
  });

  it('for a change that rolled back', async () => {
    const { id } = await created();
    await settled();
    slack.calls.length = 0;
    const before = await t.testStore.store.db.selectFrom('chat_announcements').selectAll().execute();
    await expect(
      t.app.writes.run(sourceActor(acme, 'cli'), async (trx, change) => {
        await trx.updateTable('calendar_events').set({ title: 'Never seen' }).where('id', '=', id).execute();
        expect(await change.announceInChat(id, 'changed')).toBe(1);
        throw new Error('refused after the announcement was recorded');
      }),
    ).rejects.toThrow('refused after the announcement was recorded');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await settled();
    expect(calls()).toEqual([]);
    expect(await t.testStore.store.db.selectFrom('chat_announcements').selectAll().execute()).toEqual(before);
  });
});
