// Hosted data imports as it is: records fetched from a hosted-mode token import without edits and answer as
// the originals (event times in UTC: the API shows no time zone); a field named both ways is refused with its
// line; exports are always in spec names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRecords } from '../../src/export/export.service.js';
import { ImportError } from '../../src/import/problems.js';
import { hostedAliases } from '../../src/import/parse-hosted-aliases.js';
import { hostedKey } from '../../src/hosted/hosted-names.js';
import { eventTimesInUtc } from '../helpers/event-times.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { profileIds } from '../../fixtures/community.js';
import { announcements, generalTwin } from '../../fixtures/feeds.js';
import { partnerEvent, threadPost } from '../fixtures/hosted.js';
import { postRecords } from '../../fixtures/posts.js';

let t: TestApp;
let source: string;

beforeAll(async () => {
  t = await createTestApp();
  source = await t.community('source');
  await t.importRecords(source, [...postRecords, announcements, generalTwin, partnerEvent, threadPost]);
});
afterAll(() => t.close());

type Row = { id: string } & Record<string, unknown>;
const records = async (path: string, token: string): Promise<Row[]> =>
  (await t.get(`/admin/v0${path}`, token)).json().data.records;

/** What a client of the hosted API can fetch: every feed, every event of each status, every post of each feed. */
async function fetchAll(token: string): Promise<object[]> {
  const feeds = await records('/feeds?per_page=100', token);
  const events = [];
  for (const status of ['published', 'draft', 'needs_approval'])
    events.push(...(await records(`/calendar_events?status=${status}&per_page=100`, token)));
  const posts = [];
  for (const feed of feeds) posts.push(...(await records(`/feeds/${feed.id}/posts?per_page=100`, token)));
  return [
    ...feeds.map((r) => ({ kind: 'feed', ...r })),
    ...events.map((r) => ({ kind: 'calendar_event', ...r })),
    ...posts.map((r) => ({ kind: 'post', ...r })),
  ];
}

/** Every answer about feeds, events and posts (comments are not listable, so they are not compared). */
async function answers(token: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const ask = async (path: string) => {
    const res = await t.get(`/admin/v0${path}`, token);
    out.push([path, res.statusCode, res.json()]);
    return res.json().data;
  };
  const feeds = (await ask('/feeds?per_page=100')).records as Row[];
  for (const feed of feeds) {
    await ask(`/feeds/${feed.id}`);
    for (const sort of ['newest', 'oldest', 'most-recent-activity'])
      await ask(`/feeds/${feed.id}/posts?per_page=100&sort=${sort}`);
  }
  await ask('/feeds/home/posts?per_page=100');
  for (const status of ['published', 'draft']) {
    for (const event of (await ask(`/calendar_events?status=${status}&per_page=100`)).records as Row[])
      await ask(`/calendar_events/${event.id}`);
  }
  await ask('/calendar_events?time_filter=upcoming');
  await ask('/calendar_events?date_filter=2026-03-08');
  for (const post of (await ask('/feeds/home/posts?per_page=100')).records as Row[]) await ask(`/posts/${post.id}`);
  await ask('/search?type=post&q=welcome');
  return out;
}

describe('importing what a hosted-mode token fetched', () => {
  it('takes the records without edits, and the copy answers as the original in both modes, event times in UTC', async () => {
    const fetched = await fetchAll(await t.token(source, ['read'], { fieldNames: 'hosted' }));
    expect(JSON.stringify(fetched)).toContain('"luma_event_id":"evt-LUMA123"');
    const copy = await t.community('copy');
    expect(await t.importRecords(copy, fetched)).toEqual({
      records: 23,
      feeds: 6,
      profiles: 2,
      tags: 2,
      calendar_events: 8,
      posts: 9,
      comments: 0,
      badges: 0,
      groups: 0,
    });
    for (const fieldNames of ['spec', 'hosted'] as const) {
      const [before, after] = [
        await answers(await t.token(source, ['read'], { fieldNames })),
        await answers(await t.token(copy, ['read'], { fieldNames })),
      ];
      expect(after).toEqual(eventTimesInUtc(before));
      expect(JSON.stringify(before)).toContain('"start_date":"2026-03-07T10:00:00-08:00"');
      expect(JSON.stringify(after)).toContain('"start_date":"2026-03-07T18:00:00+00:00"');
      expect(before.length).toBeGreaterThan(40);
    }
  });

  it('takes comments as hosted-mode search answers them', async () => {
    const hostedToken = await t.token(source, ['read'], { fieldNames: 'hosted' });
    const comments = await records('/search?type=comment&q=grace', hostedToken);
    expect(comments[0]).toMatchObject({
      slack_message: null,
      parent_post: { id: 'postwelcome1' },
      feed: { label: 'General' },
    });
    const copy = await t.community('comments');
    const posts = (await records('/feeds/home/posts?per_page=100', hostedToken)).map((r) => ({ kind: 'post', ...r }));
    const feeds = (await records('/feeds?per_page=100', hostedToken)).map((r) => ({ kind: 'feed', ...r }));
    const parent = {
      kind: 'comment',
      ...comments[0],
      id: 'comment00001',
      parent_comment_id: null,
      body_plaintext: 'Hi!',
    };
    expect(
      await t.importRecords(copy, [...feeds, ...posts, parent, ...comments.map((r) => ({ kind: 'comment', ...r }))]),
    ).toMatchObject({ comments: 2 });
    const token = await t.token(copy, ['read'], { fieldNames: 'hosted' });
    expect(await records('/search?type=comment&q=grace', token)).toEqual(comments);
  });

  it('exports in spec names, whatever names the import used', async () => {
    const exported: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, source)) exported.push(record);
    const text = JSON.stringify(exported);
    expect(text).not.toMatch(/"(slack|luma)_|_slack_|"mentioned_slack/);
    expect(text).toContain('"partner_event_id":"evt-LUMA123"');
    expect(text).toContain('"reminders_config":[{"minutes_before":60');
  });
});

describe('both names for one field', () => {
  const refused = async (record: object, reason: string) => {
    const community = await t.community(`refused-${Math.random().toString(36).slice(2, 8)}`);
    const error = await t
      .importRecords(community, [{ kind: 'tag', id: 'ok', label: 'OK' }, record])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(`line 2: ${reason}`);
    expect(
      (await t.testStore.store.db.selectFrom('tags').select('id').where('community_id', '=', community).execute())
        .length,
    ).toBe(0);
  };

  it('is refused naming the line, at the top of a record', async () => {
    await refused(
      {
        kind: 'calendar_event',
        id: 'evbothnames1',
        start_date: '2026-03-01T00:00:00Z',
        partner_event_id: 'a',
        luma_event_id: 'b',
      },
      "calendar_event: both 'luma_event_id' and 'partner_event_id' are given; use one",
    );
    await refused(
      { kind: 'feed', id: announcements.id, label: 'x', slack_channel_id: 'C1', chat_channel_id: 'C1' },
      "feed: both 'slack_channel_id' and 'chat_channel_id' are given; use one",
    );
  });

  it('is refused naming the line and the place, inside a record', async () => {
    await refused(
      {
        kind: 'calendar_event',
        id: 'evbothnames2',
        start_date: '2026-03-01T00:00:00Z',
        hosts: [profileIds.ada, { profile_id: profileIds.grace, slack_user_id: 'U1', chat_user_id: 'U1' }],
      },
      "calendar_event: hosts.1: both 'slack_user_id' and 'chat_user_id' are given; use one",
    );
    await refused(
      {
        kind: 'post',
        id: 'postboth0001',
        created_at: '2026-03-01T00:00:00Z',
        feed_id: announcements.id,
        slack_message: { parent_slack_message_id: null, parent_chat_message_id: null },
      },
      "post: chat_message: both 'parent_slack_message_id' and 'parent_chat_message_id' are given; use one",
    );
  });

  it('the alias tables follow the rename rule', () => {
    const pairs = (table: object): [string, string][] =>
      Object.entries(table).flatMap(([hosted, entry]: [string, string | [string, object]]) =>
        typeof entry === 'string' ? [[hosted, entry]] : [[hosted, entry[0]], ...pairs(entry[1])],
      );
    for (const [hosted, spec] of Object.values(hostedAliases).flatMap(pairs))
      expect(hostedKey(spec), spec).toBe(hosted);
  });
});
