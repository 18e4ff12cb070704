// A token in hosted field-name mode gets the hosted product's answers, key by key, against hand-written hosted
// fixtures; a spec token's answers are untouched, and the two never share an ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ada, feedIds, grace } from '../../fixtures/community.js';
import { announcements, announcementsFeed, generalTwin, moreFeedIds } from '../../fixtures/feeds.js';
import {
  hostedAnnouncementsFeed,
  hostedDstEvent,
  hostedPartnerEvent,
  hostedRenames,
  hostedReply,
  hostedThreadMessage,
  hostedWelcomePost,
  partnerEvent,
  threadBlocks,
  threadDoc,
  threadPost,
} from '../fixtures/hosted.js';
import { postIds, postRecords } from '../../fixtures/posts.js';

let t: TestApp;
let community: string;
let spec: string;
let hosted: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community, token: spec } = await t.seed(
    'acme',
    [...postRecords, announcements, generalTwin, partnerEvent, threadPost],
    ['read', 'members:write'],
  ));
  hosted = await t.token(community, ['read', 'members:write'], { fieldNames: 'hosted' });
});
afterAll(() => t.close());

const data = async (path: string, token = hosted) => {
  const res = await t.get(`/admin/v0${path}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

/** Every key of a JSON value, outside block contents and document bodies. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      if (
        key !== 'blocks' &&
        key !== 'body_prosemirror' &&
        !/_(chat|slack)_blocks$/.test(key) &&
        key !== 'reminders_config'
      )
        keysOf(inner, into);
    }
  }
  return into;
}

describe('hosted field names, key by key', () => {
  it('answers an event with hosted keys, ISO times on the event and its hosts, and reminders_config', async () => {
    expect(await data('/calendar_events/evdstcross01')).toEqual(hostedDstEvent);
    // The issue's own example: `2026-02-07T18:04:05.123+00:00`; and the stored reminders as imported.
    expect(await data('/calendar_events/evpartner001')).toEqual(hostedPartnerEvent);
  });

  it('keeps a hosted answer only until the store changes: new reminders show at the next request', async () => {
    const path = '/admin/v0/calendar_events/evpartner001';
    const first = await t.get(path, hosted);
    const again = await t.get(path, hosted);
    expect([again.body, again.headers.etag]).toEqual([first.body, first.headers.etag]);
    const reminders = [{ minutes_before: 15, channel: 'email' }];
    try {
      await t.importRecords(community, [{ ...partnerEvent, reminders_config: reminders }]);
      expect((await t.get(path, hosted)).json().data.reminders_config).toEqual(reminders);
    } finally {
      await t.importRecords(community, [partnerEvent]);
    }
    expect((await t.get(path, hosted)).body).toBe(first.body);
  });

  it('answers timestamps as the hosted product does: ISO on speakers, trailing zeros trimmed elsewhere', async () => {
    const event = await data('/calendar_events/evongoing001');
    expect([event.created_at, event.updated_at, event.hosts.map((h: { created_at: string }) => h.created_at)]).toEqual([
      '2026-01-02T00:00:00+00:00',
      '2026-01-02T00:00:00+00:00',
      ['2025-02-04T10:00:00+00:00', '2025-02-03T04:05:06.123456+00:00'],
    ]);
    const speaking = {
      ...partnerEvent,
      id: 'evspeaker001',
      title: 'Speakers',
      partner_event_id: null,
      publish_to_site: false,
    };
    await t.importRecords(community, [{ ...speaking, speakers: [grace, ada] }]);
    const speakers = (await data('/calendar_events/evspeaker001')).speakers;
    expect(speakers.map((s: { created_at: string }) => s.created_at)).toEqual([
      '2025-02-04T10:00:00+00:00',
      '2025-02-03T04:05:06.123456+00:00',
    ]);
    // Spec mode keeps the spec form on the same records.
    expect((await data('/calendar_events/evspeaker001', spec)).speakers[0].created_at).toBe(
      '2025-02-04 10:00:00.000000+00',
    );
    const post = await data(`/posts/${postIds.plain}`);
    expect([post.created_at, post.updated_at, post.latest_activity_at, post.author.created_at]).toEqual([
      '2026-03-02 12:00:00+00',
      '2026-03-02 12:00:00+00',
      '2026-03-02 12:00:00+00',
      '2025-02-04 10:00:00+00',
    ]);
    const [comment] = (await data('/search?type=comment&q=hi')).records;
    expect([comment.id, comment.created_at, comment.updated_at, comment.author.created_at]).toEqual([
      'comment00001',
      '2026-03-02 09:00:00+00',
      '2026-03-02 09:00:00+00',
      '2025-02-04 10:00:00+00',
    ]);
  });

  it('answers lists of events with the same records', async () => {
    const page = await data('/calendar_events?per_page=100&published_to_site=true');
    expect(page.records.map((r: { id: string }) => r.id)).toEqual(['evdstcross01', 'evongoing001', 'evpartner001']);
    expect(page.records[0]).toEqual(hostedDstEvent);
    expect(page.records[2]).toEqual(hostedPartnerEvent);
    expect(page.records[1].reminders_config).toEqual([]);
  });

  it('answers a post with slack_message, message_ts as a string with six decimals, and hosted references', async () => {
    const res = await t.get(`/admin/v0/posts/${postIds.welcome}`, hosted);
    expect(res.body).toContain('"message_ts":"1772359200.123456"');
    expect(res.json()).toEqual({ success: true, data: hostedWelcomePost });
  });

  it('never renames inside blocks or a ProseMirror body, and keeps a timestamp string as the chat product wrote it', async () => {
    const post = await data('/posts/postthread01');
    expect(post.slack_message).toEqual(hostedThreadMessage);
    expect(post.body_prosemirror).toEqual(threadDoc);
    expect(post.slack_message.blocks).toEqual(threadBlocks);
    expect((await data('/posts/postthread01', spec)).chat_message.message_ts).toBe(1772668800.0001);
  });

  it('answers feeds with their slack_channel keys', async () => {
    expect(await data(`/feeds/${moreFeedIds.announcements}`)).toEqual(hostedAnnouncementsFeed);
    const page = await data('/feeds?per_page=100');
    expect(page.records.at(-1)).toEqual(hostedAnnouncementsFeed);
    expect(page.records[0]).toMatchObject({
      slack_channel_id: 'C0EVENTS01',
      slack_channel_num_members: 0,
      slack_channel_topic_slack_blocks: null,
    });
  });

  it('answers Home and search records in hosted names', async () => {
    const home = await data('/feeds/home/posts?per_page=100');
    expect(home.records.find((p: { id: string }) => p.id === postIds.welcome)).toEqual(hostedWelcomePost);
    const comments = await data('/search?type=comment&q=grace');
    expect(comments.records).toEqual([hostedReply]);
    const posts = await data('/search?type=post&q=welcome&highlight=true');
    expect(posts.records[0]).toEqual({
      ...hostedWelcomePost,
      highlight: expect.stringContaining('<mark>Welcome</mark>'),
    });
  });

  it('answers an added member with slack_profile_id', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v0/members',
      headers: { authorization: `Bearer ${hosted}`, 'content-type': 'application/json' },
      payload: { email: 'lin@example.com', full_name: 'Lin Chen' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      message: 'New member was created successfully.',
      data: {
        member: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          email: 'lin@example.com',
          full_name: 'Lin Chen',
          preferred_name: 'Lin Chen',
          avatar_url_original: null,
          slack_profile_id: null,
          is_deactivated: false,
        },
      },
    });
  });

  it('marks a replayed answer with X-Idempotent-Replayed too, as the hosted docs name it; a spec token gets only Idempotent-Replayed', async () => {
    const add = (token: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/v0/members',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        payload: { email: 'replayed@example.com', full_name: 'Re Played' },
      });
    const first = await add(hosted, 'hosted-replay-1');
    const replay = await add(hosted, 'hosted-replay-1');
    expect([first.statusCode, first.headers['idempotent-replayed'], first.headers['x-idempotent-replayed']]).toEqual([
      201,
      undefined,
      undefined,
    ]);
    expect([
      replay.statusCode,
      replay.headers['idempotent-replayed'],
      replay.headers['x-idempotent-replayed'],
      replay.json(),
    ]).toEqual([201, 'true', 'true', first.json()]);
    await add(spec, 'spec-replay-1');
    const specReplay = await add(spec, 'spec-replay-1');
    expect([specReplay.headers['idempotent-replayed'], specReplay.headers['x-idempotent-replayed']]).toEqual([
      'true',
      undefined,
    ]);
  });

  it('renames exactly the listed keys: no answer to a hosted token holds a chat or partner key outside block contents', async () => {
    const paths = [
      '/calendar_events?per_page=100',
      '/calendar_events/evdstcross01',
      '/calendar_events/evpartner001',
      '/feeds?per_page=100',
      `/feeds/${moreFeedIds.announcements}`,
      '/feeds/home/posts?per_page=100',
      `/posts/${postIds.welcome}`,
      '/posts/postthread01',
      '/search?type=comment&q=grace',
      '/api_key/me',
    ];
    const specKeys = new Set<string>();
    const hostedKeys = new Set<string>();
    for (const path of paths) {
      keysOf(await data(path, spec), specKeys);
      keysOf(await data(path), hostedKeys);
    }
    const words = /(^|_)(chat|partner)(_|$)/;
    expect([...hostedKeys].filter((key) => words.test(key))).toEqual([]);
    const renamed = [...specKeys].filter((key) => words.test(key)).sort();
    // Every renamed key but the member's, which only the POST answers.
    expect(renamed).toEqual(
      Object.keys(hostedRenames)
        .filter((key) => key !== 'chat_profile_id')
        .sort(),
    );
    for (const key of renamed) expect(hostedKeys.has(hostedRenames[key] ?? ''), key).toBe(true);
    expect([...hostedKeys].filter((key) => !specKeys.has(key) && !Object.values(hostedRenames).includes(key))).toEqual([
      'reminders_config',
    ]);
  });
});

describe('what stays the same', () => {
  it('answers a spec token in spec names, untouched', async () => {
    expect(await data(`/feeds/${moreFeedIds.announcements}`, spec)).toEqual(announcementsFeed);
    const event = await data('/calendar_events/evpartner001', spec);
    expect([event.created_at, event.partner_event_id, 'reminders_config' in event]).toEqual([
      '2026-02-07 18:04:05.123000+00',
      'evt-LUMA123',
      false,
    ]);
  });

  it('takes the same requests in both modes', async () => {
    const bySpec = await data(`/calendar_events?feed_id=${feedIds.events}&time_filter=past`, spec);
    const byHosted = await data(`/calendar_events?feed_id=${feedIds.events}&time_filter=past`);
    expect(byHosted.records.map((r: { id: string }) => r.id)).toEqual(bySpec.records.map((r: { id: string }) => r.id));
    expect(byHosted.total_records).toBe(1);
  });

  it('answers errors alike in both modes', async () => {
    const ask = (token: string) => t.get('/admin/v0/posts/nosuchpost01', token, { 'x-request-id': 'req-h' });
    const [a, b] = [await ask(spec), await ask(hosted)];
    expect([b.statusCode, b.body]).toEqual([a.statusCode, a.body]);
    expect(b.json()).toEqual({
      success: false,
      error: "Post 'nosuchpost01' was not found.",
      code: 'not_found',
      request_id: 'req-h',
    });
  });

  it('never gives a hosted answer the ETag of the spec answer; each 304s to its own', async () => {
    // A version ETag (an answer made of fragments) and a hash of the body (feeds, search).
    for (const path of [
      '/admin/v0/calendar_events/evdstcross01',
      '/admin/v0/calendar_events?per_page=3',
      `/admin/v0/feeds/${moreFeedIds.announcements}`,
      '/admin/v0/search?type=post&q=welcome',
    ]) {
      const specTag = String((await t.get(path, spec)).headers['etag']);
      const hostedTag = String((await t.get(path, hosted)).headers['etag']);
      expect(specTag, path).toMatch(/^"[A-Za-z0-9_.-]+"$/);
      expect(hostedTag, path).toMatch(/^"[A-Za-z0-9_.-]+\.hosted"$/);
      expect(hostedTag, path).not.toBe(specTag);
      const again = await t.get(path, hosted, { 'if-none-match': hostedTag });
      expect([again.statusCode, again.body, again.headers['etag']], path).toEqual([304, '', hostedTag]);
      expect((await t.get(path, hosted, { 'if-none-match': specTag })).statusCode, path).toBe(200);
      expect((await t.get(path, spec, { 'if-none-match': hostedTag })).statusCode, path).toBe(200);
      expect((await t.get(path, spec, { 'if-none-match': specTag })).statusCode, path).toBe(304);
    }
    // A version ETag keeps its versions: the hosted one is the spec one, marked.
    const specTag = String((await t.get('/admin/v0/calendar_events/evdstcross01', spec)).headers['etag']);
    expect((await t.get('/admin/v0/calendar_events/evdstcross01', hosted)).headers['etag']).toBe(
      `${specTag.slice(0, -1)}.hosted"`,
    );
  });
});
