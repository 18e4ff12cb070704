// The import: all or nothing per file, bad lines named with their number and reason, any record order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../../src/import/problems.js';
import { importLines } from '../../src/import/import.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds, profileIds } from '../../fixtures/community.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function rowCounts(): Promise<Record<string, number>> {
  const db = t.testStore.store.db;
  const counts: Record<string, number> = {};
  for (const table of [
    'feeds',
    'profiles',
    'tags',
    'calendar_events',
    'event_profiles',
    'event_tags',
    'event_publications',
    'posts',
    'comments',
  ] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

const lines = (records: object[]) => records.map((r) => JSON.stringify(r));

describe('import', () => {
  it('accepts records in any order within a file and reports what it imported', async () => {
    const community = await t.community('any-order');
    const summary = await t.importRecords(community, [...baseRecords].reverse());
    expect(summary).toEqual({
      records: 15,
      feeds: 4,
      profiles: 2,
      tags: 2,
      calendar_events: 7,
      posts: 0,
      comments: 0,
      badges: 0,
      groups: 0,
    });
  });

  const bad: [string, string[], number, string][] = [
    [
      'invalid JSON',
      ['{"kind":"tag","id":"a","label":"A"}', '{nope'],
      2,
      "line 2: not valid JSON (Expected property name or '}' in JSON at column 2)",
    ],
    ['a non-object', ['[1,2]'], 1, 'line 1: a record must be a JSON object'],
    [
      'an unknown kind',
      ['{"kind":"meme","id":"x"}'],
      1,
      'line 1: kind must be one of feed, profile, tag, calendar_event, post, comment, badge, group (got "meme")',
    ],
    [
      'a missing field',
      ['{"kind":"calendar_event","id":"evbad0000001"}'],
      1,
      'line 1: calendar_event: start_date is required',
    ],
    [
      'a bad id',
      ['{"kind":"calendar_event","id":"EV-BAD","start_date":"2026-01-01"}'],
      1,
      'line 1: calendar_event: id must be 12 lowercase letters or digits',
    ],
    [
      'a bad timestamp',
      ['{"kind":"calendar_event","id":"evbad0000001","start_date":"2026-13-01T00:00:00Z"}'],
      1,
      "line 1: start_date: '2026-13-01T00:00:00Z' is not an ISO 8601 or wire timestamp",
    ],
    [
      'an unknown time zone',
      ['{"kind":"calendar_event","id":"evbad0000001","start_date":"2026-01-01","timezone":"Mars/Olympus"}'],
      1,
      "line 1: timezone: 'Mars/Olympus' is not an IANA time zone",
    ],
    [
      'an end before the start',
      ['{"kind":"calendar_event","id":"evbad0000001","start_date":"2026-01-02","end_date":"2026-01-01"}'],
      1,
      'line 1: end_date: must not be before start_date',
    ],
    [
      'a host that exists nowhere',
      [
        '{"kind":"tag","id":"a","label":"A"}',
        '{"kind":"calendar_event","id":"evbad0000001","start_date":"2026-01-01","hosts":["33333333-3333-4333-8333-333333333333"]}',
      ],
      2,
      "line 2: host: profile '33333333-3333-4333-8333-333333333333' does not exist in the file or the community",
    ],
    [
      'two profiles with one e-mail',
      [
        '{"kind":"profile","profile_id":"11111111-1111-4111-8111-111111111111","email":"Same@Example.com"}',
        '{"kind":"profile","profile_id":"22222222-2222-4222-8222-222222222222","email":"same@example.com"}',
      ],
      2,
      "line 2: profile: e-mail 'same@example.com' already belongs to profile '11111111-1111-4111-8111-111111111111'",
    ],
  ];
  for (const [name, input, line, message] of bad) {
    it(`refuses a file with ${name}, naming line ${line}, and keeps nothing`, async () => {
      const community = await t.community(`bad-${name.replace(/[^a-z]/g, '')}`);
      const before = await rowCounts();
      const error = await importLines(t.testStore.store, community, [...lines(baseRecords), ...input]).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImportError);
      const shifted = message.replace(/^line (\d+)/, (_, n: string) => `line ${Number(n) + baseRecords.length}`);
      expect((error as ImportError).message).toBe(shifted);
      expect((error as ImportError).line).toBe(line + baseRecords.length);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it('keeps nothing of a file that fails while writing', async () => {
    const community = await t.community('late-failure');
    const before = await rowCounts();
    // Valid lines, but a post whose feed is missing is only found once the links are checked.
    const records = [
      ...baseRecords,
      {
        kind: 'post',
        id: 'postmissing1',
        created_at: '2026-01-01T00:00:00Z',
        feed_id: '99999999-9999-4999-8999-999999999999',
      },
    ];
    await expect(t.importRecords(community, records)).rejects.toThrow(
      `line ${records.length}: feed: feed '99999999-9999-4999-8999-999999999999' does not exist in the file or the community`,
    );
    expect(await rowCounts()).toEqual(before);
  });

  it("upserts by id and replaces an event's lists", async () => {
    const community = await t.community('upsert');
    await t.importRecords(community, baseRecords);
    const token = await t.token(community);
    await t.importRecords(community, [
      {
        kind: 'calendar_event',
        id: 'evdstcross01',
        title: 'Renamed',
        start_date: '2026-03-07T10:00:00-08:00',
        timezone: 'America/Los_Angeles',
        hosts: [profileIds.grace],
        published_to: [],
      },
    ]);
    const event = (await t.get('/admin/v0/calendar_events/evdstcross01', token)).json().data;
    expect([
      event.title,
      event.slug,
      event.end_date,
      event.hosts.map((h: { profile_id: string }) => h.profile_id),
      event.speakers,
      event.published_to,
    ]).toEqual(['Renamed', 'renamed', null, [profileIds.grace], [], []]);
    expect((await t.get(`/admin/v0/calendar_events?feed_id=${feedIds.events}`, token)).json().data.total_records).toBe(
      0,
    );
  });
});

describe('a comment moved to another post', () => {
  it('counts again the post it left as well as the post it joins', async () => {
    const community = await t.community('moved-comment');
    const post = (id: string, created_at: string) => ({
      kind: 'post',
      id,
      created_at,
      feed_id: feedIds.general,
      title: id,
    });
    const comment = (post_id: string) => ({
      kind: 'comment',
      id: 'movingcmnt01',
      created_at: '2026-03-05T10:00:00Z',
      post_id,
      author_profile_id: profileIds.ada,
      body_plaintext: 'On the move',
    });
    await t.importRecords(community, [
      ...baseRecords,
      post('postleftbyc1', '2026-03-01T10:00:00Z'),
      post('postjoinedc1', '2026-03-02T10:00:00Z'),
      comment('postleftbyc1'),
    ]);
    const token = await t.token(community);
    const facts = async (id: string) => {
      const { data } = (await t.get(`/admin/v0/posts/${id}`, token)).json();
      return [data.comments_count, data.latest_activity_at];
    };
    expect(await facts('postleftbyc1')).toEqual([1, '2026-03-05 10:00:00.000000+00']);
    // Another file, later: only the comment, now on the other post.
    await t.importRecords(community, [comment('postjoinedc1')]);
    expect(await facts('postleftbyc1')).toEqual([0, '2026-03-05 10:00:00.000000+00']);
    expect(await facts('postjoinedc1')).toEqual([1, '2026-03-05 10:00:00.000000+00']);
  });
});

describe('import shapes that the API must be able to answer with', () => {
  it('refuses references and blocks of the wrong shape instead of failing on read', async () => {
    const community = await t.community('shapes');
    await expect(
      t.importRecords(community, [
        {
          kind: 'calendar_event',
          id: 'evshape00001',
          start_date: '2026-01-01',
          description_chat_blocks_references: {
            mentioned_chat_users: [{ nope: 1 }],
            mentioned_chat_channels: [],
            custom_emojis: [],
            urls: [],
          },
        },
      ]),
    ).rejects.toThrow(
      "line 1: calendar_event: unknown field 'description_chat_blocks_references.mentioned_chat_users.0.nope'; description_chat_blocks_references.mentioned_chat_users.0.profile_id is required",
    );
    await expect(
      t.importRecords(community, [
        {
          kind: 'calendar_event',
          id: 'evshape00001',
          start_date: '2026-01-01',
          description_chat_blocks: [{ type: 'rich_text', elements: 'text' }],
        },
      ]),
    ).rejects.toThrow('line 1: calendar_event: description_chat_blocks.0.elements must be a list');
  });
});
