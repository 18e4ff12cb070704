// Retrieving posts: the exact Post shape, and the fields the import derives from blocks, documents and comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { adaProfile, baseRecords, feedIds, profileIds } from '../../fixtures/community.js';
import { filler, postIds, postRecords, posts, proseDoc, welcomeBlocks } from '../../fixtures/posts.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', postRecords));
});
afterAll(() => t.close());

const post = async (id: string, as = token) => {
  const res = await t.get(`/admin/v0/posts/${id}`, as);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

const general = { id: feedIds.general, label: 'General', slug: 'general' };
const eventsFeed = { id: feedIds.events, label: 'Events & Meetups', slug: 'events--meetups' };
const flags = (image: boolean, video: boolean) => ({
  is_embedded_media: image || video,
  is_image: image,
  is_video: video,
});

describe('GET /admin/v0/posts/:post_id', () => {
  it('answers every field of a chat post, with what the import derived from its blocks and comments', async () => {
    const res = await t.get(`/admin/v0/posts/${postIds.welcome}`, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.startsWith(`{"success":true,"data":{"id":"${postIds.welcome}"`)).toBe(true);
    // A JSON number, digits intact, not a string.
    expect(res.body).toContain('"message_ts":1772359200.123456,');
    expect(res.json()).toEqual({
      success: true,
      data: {
        id: postIds.welcome,
        created_at: '2026-03-01 10:00:00.000000+00',
        updated_at: '2026-03-01 10:05:00.250000+00',
        content_created_at: '2026-03-01 09:59:59.999999+00',
        latest_activity_at: '2026-03-03 08:00:00.000000+00',
        title: 'Welcome to Hearth: read me first!',
        slug: 'welcome-to-hearth-read-me-first',
        feed_id: feedIds.general,
        post_detail_display_format: 'chat_message',
        author_profile_id: profileIds.ada,
        read_time_minutes: 1,
        source: 'chat',
        file_attachments_count: 1,
        reactions_count: 7,
        comments_count: 2,
        body_plaintext: [
          '@here Welcome! Say hi to @Grace Hopper and read the guide before posting in #Events & Meetups :partyparrot:👍',
          '1. Photos: https://img.example.com/team.png',
          '2. Recording: https://youtu.be/abc123xyz, slides at https://hearth.example.com/guide',
          '> Be kind, @Grace Hopper says so.',
          'npx hearth serve',
          '@U0NOTOURS1 also joined #C0ELSEWHR1',
        ].join('\n'),
        body_prosemirror: null,
        chat_message: {
          id: '3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
          message_ts: 1772359200.123456,
          blocks: welcomeBlocks,
          markdown: '<!here> Welcome! Say hi to <@U0GRACE001> …',
          permalink: 'https://chat.example.com/archives/C0GENERAL1/p1772359200123456',
          parent_chat_message_id: null,
          username: 'Ada Lovelace',
          icon: 'https://chat.example.com/ada-72.png',
        },
        cover_image_file_id: 'F0COVER001',
        cover_image_url: 'https://files.example.com/cover.png',
        author: adaProfile,
        feed: general,
        references: {
          // Grace once though mentioned twice; the user and channel of another workspace are left out.
          mentioned_chat_users: [
            { profile_id: profileIds.grace, preferred_name: 'Grace Hopper', chat_user_id: 'U0GRACE001' },
          ],
          mentioned_chat_channels: [{ chat_channel: { id: 'C0EVENTS01', name: 'Events & Meetups' }, feed: eventsFeed }],
          custom_emojis: [
            { alias: 'partyparrot', name: 'partyparrot', url: 'https://emoji.example.com/partyparrot.gif' },
          ],
          urls: [
            { order_seen: 0, ...flags(false, false), url: 'https://hearth.example.com/guide' },
            { order_seen: 1, ...flags(true, false), url: 'https://img.example.com/team.png' },
            { order_seen: 2, ...flags(false, true), url: 'https://youtu.be/abc123xyz' },
          ],
        },
      },
    });
  });

  it('derives plain text, read time and references of a post that has only a ProseMirror body', async () => {
    const data = await post(postIds.prose);
    expect(data.body_prosemirror).toEqual(proseDoc);
    expect(data.body_plaintext).toBe(
      `Meetup notes\nThanks @Ada for hosting, see the photos and https://hearth.example.com/recap.\n${filler}`,
    );
    // 2 + 10 + 440 = 452 words: ceil(452 / 200) = 3.
    expect(data.read_time_minutes).toBe(3);
    expect(data.references).toEqual({
      mentioned_chat_users: [
        { profile_id: profileIds.ada, preferred_name: 'Ada Lovelace', chat_user_id: 'U0ADA00001' },
      ],
      mentioned_chat_channels: [],
      custom_emojis: [],
      urls: [
        { order_seen: 0, ...flags(true, false), url: 'https://img.example.com/meetup.jpg' },
        { order_seen: 1, ...flags(false, false), url: 'https://hearth.example.com/recap' },
      ],
    });
    expect([data.chat_message, data.author_profile_id, data.author]).toEqual([null, null, null]);
    expect(data.feed).toEqual(eventsFeed);
  });

  it('keeps every key of a bare post, null or zero or empty', async () => {
    expect(await post(postIds.tieA)).toEqual({
      id: postIds.tieA,
      created_at: '2026-03-04 00:00:00.000000+00',
      updated_at: '2026-03-04 00:00:00.000000+00',
      content_created_at: null,
      latest_activity_at: '2026-03-04 00:00:00.000000+00',
      title: 'Tie A',
      slug: 'tie-a',
      feed_id: feedIds.general,
      post_detail_display_format: null,
      author_profile_id: null,
      read_time_minutes: 1,
      source: null,
      file_attachments_count: 0,
      reactions_count: 0,
      comments_count: 0,
      body_plaintext: null,
      body_prosemirror: null,
      chat_message: null,
      cover_image_file_id: null,
      cover_image_url: null,
      author: null,
      feed: general,
      references: { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] },
    });
  });

  it('keeps a given body and slug, and slugs a title per DECISIONS (no collapsing, 50 characters)', async () => {
    const plain = await post(postIds.plain);
    expect([plain.body_plaintext, plain.slug, plain.read_time_minutes]).toEqual([
      'Given text stays as given.',
      'custom-slug',
      1,
    ]);
    const events = await post(postIds.events);
    expect(events.slug).toBe('caf--night--fridays-meetup-with-a-title-past-fifty');
    // The author came as a whole object in the post record.
    expect([events.author_profile_id, events.author.profile_id, events.author.email]).toEqual([
      profileIds.grace,
      profileIds.grace,
      'grace@example.com',
    ]);
  });

  it('answers posts of archived and unlisted feeds by id', async () => {
    expect((await post(postIds.archived)).feed).toEqual({
      id: feedIds.archived,
      label: 'Old stuff',
      slug: 'old-stuff',
    });
    expect((await post(postIds.staff)).feed).toEqual({ id: feedIds.unlisted, label: 'Staff', slug: 'staff' });
  });

  it('shows a post in a list exactly as by id', async () => {
    const listed = (await t.get(`/admin/v0/feeds/${feedIds.general}/posts?sort=oldest&per_page=1`, token)).json().data
      .records[0];
    expect(listed).toEqual(await post(postIds.welcome));
  });
});

describe('comments arriving in a later import', () => {
  it('keep comments_count and latest_activity_at right, and never move activity backwards', async () => {
    const later = await t.community('later');
    const laterToken = await t.token(later);
    const welcome = posts.find((p) => p.id === postIds.welcome);
    await t.importRecords(later, [...baseRecords, { ...welcome }]);
    const activity = async () => {
      const data = await post(postIds.welcome, laterToken);
      return [data.comments_count, data.latest_activity_at];
    };
    expect(await activity()).toEqual([0, '2026-03-01 10:00:00.000000+00']);

    await t.importRecords(later, [
      {
        kind: 'comment',
        id: 'latecomment1',
        created_at: '2026-03-05T18:30:00.5Z',
        parent_post_id: postIds.welcome,
        body_plaintext: 'Late!',
      },
    ]);
    expect(await activity()).toEqual([1, '2026-03-05 18:30:00.500000+00']);

    // An older comment counts but does not pull activity back.
    await t.importRecords(later, [
      { kind: 'comment', id: 'oldcomment01', created_at: '2026-03-01T12:00:00Z', post_id: postIds.welcome },
    ]);
    expect(await activity()).toEqual([2, '2026-03-05 18:30:00.500000+00']);

    // Re-importing the post itself (retitled, no counts given) keeps what its comments make.
    await t.importRecords(later, [{ ...welcome, title: 'Welcome, again' }]);
    expect(await activity()).toEqual([2, '2026-03-05 18:30:00.500000+00']);
    expect((await post(postIds.welcome, laterToken)).slug).toBe('welcome-again');

    const newest = (await t.get('/admin/v0/feeds/home/posts?sort=most-recent-activity', laterToken)).json().data
      .records;
    expect(newest.map((p: { id: string }) => p.id)).toEqual([postIds.welcome]);
  });
});
