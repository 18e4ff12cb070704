// The import loses nothing without a word: unknown fields are refused (or dropped when asked), local times
// are read in the record's time zone, bare author ids and null nested scalars are accepted, and one run
// names every bad line in plain words; a dry run checks a whole file and writes nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ImportError } from '../../src/import/problems.js';
import { importLines, importStream } from '../../src/import/import.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds, profileIds } from '../../fixtures/community.js';

let t: TestApp;
let n = 0;
/** A fresh community and a read token for it. */
async function fresh(): Promise<{ id: string; slug: string; token: string }> {
  const slug = `problems-${++n}`;
  const id = await t.community(slug);
  await t.importRecords(id, baseRecords);
  return { id, slug, token: await t.token(id) };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const failure = async (communityId: string, records: (object | string)[], options = {}) => {
  const lines = records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
  const error = await importLines(t.testStore.store, communityId, lines, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
};

const post = (id: string, extra: object = {}) => ({
  kind: 'post',
  id,
  created_at: '2026-03-01T10:00:00Z',
  feed_id: feedIds.general,
  title: 'Hello',
  ...extra,
});

describe('unknown fields', () => {
  it('refuses an unknown field, naming the line, the field and the field it most likely meant', async () => {
    const { id } = await fresh();
    const error = await failure(id, [post('postunknown1'), post('postunknown2', { titel: 'Typo' })]);
    expect(error.message).toBe("line 2: post: unknown field 'titel' (did you mean 'title'?)");
    expect(
      await t.testStore.store.db.selectFrom('posts').select('id').where('community_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('finds unknown fields inside nested objects too', async () => {
    const { id } = await fresh();
    const error = await failure(id, [
      post('postunknown3', {
        author: { profile_id: profileIds.ada, preferred_nmae: 'Ada' },
        chat_message: { markdown: 'hi', usename: 'ada' },
      }),
    ]);
    expect(error.message).toBe(
      "line 1: post: unknown field 'author.preferred_nmae' (did you mean 'preferred_name'?); unknown field 'chat_message.usename' (did you mean 'username'?)",
    );
  });

  it("finds a nested field named like an object's own members (constructor, toString)", async () => {
    const { id } = await fresh();
    const error = await failure(id, [
      post('postunknown4', { author: { profile_id: profileIds.ada, constructor: 'x', toString: 1 } }),
    ]);
    expect(error.message).toBe("line 1: post: unknown field 'author.constructor'; unknown field 'author.toString'");
  });

  it('drops unknown fields when told to, and says which', async () => {
    const { id, token } = await fresh();
    const ignored: string[] = [];
    await importLines(t.testStore.store, id, [JSON.stringify(post('postunknown4', { titel: 'Typo', colour: 'red' }))], {
      ignoreUnknown: true,
      onIgnored: (line, field) => ignored.push(`${line}:${field}`),
    });
    expect(ignored).toEqual(['1:titel', '1:colour']);
    expect((await t.get('/admin/v0/posts/postunknown4', token)).json().data.title).toBe('Hello');
  });
});

describe('event times without an offset', () => {
  const event = (id: string, start: string, extra: object = {}) => ({
    kind: 'calendar_event',
    id,
    title: id,
    start_date: start,
    ...extra,
  });
  const cases: [string, string, string, string | null, string, string][] = [
    // [id, start_date, end_date, timezone, start_date answered, end_date answered]
    [
      'evnaiveberl1',
      '2026-05-01T18:00:00',
      '2026-05-01T19:00:00',
      'Europe/Berlin',
      '2026-05-01T18:00:00+02:00',
      '2026-05-01T19:00:00+02:00',
    ],
    [
      'evnaivetoky1',
      '2026-05-01 18:00',
      '2026-05-01 19:30',
      'Asia/Tokyo',
      '2026-05-01T18:00:00+09:00',
      '2026-05-01T19:30:00+09:00',
    ],
    [
      'evnaiveutc01',
      '2026-05-01T18:00:00',
      '2026-05-01T19:00:00',
      null,
      '2026-05-01T18:00:00+00:00',
      '2026-05-01T19:00:00+00:00',
    ],
    [
      'evoffsetgiv1',
      '2026-05-01T18:00:00Z',
      '2026-05-01T21:00:00',
      'Europe/Berlin',
      '2026-05-01T20:00:00+02:00',
      '2026-05-01T21:00:00+02:00',
    ],
    // 02:30 does not exist on 8 March 2026 in New York: read with the offset before the change, as 03:30 EDT.
    [
      'evdstgapny01',
      '2026-03-08T02:30:00',
      '2026-03-08T04:00:00',
      'America/New_York',
      '2026-03-08T03:30:00-04:00',
      '2026-03-08T04:00:00-04:00',
    ],
    // 01:30 happens twice on 1 November 2026: the earlier one (EDT).
    [
      'evdstoverny1',
      '2026-11-01T01:30:00',
      '2026-11-01T01:45:00',
      'America/New_York',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:45:00-04:00',
    ],
  ];
  it("reads them as local times of the record's own time zone", async () => {
    const { id, token } = await fresh();
    await t.importRecords(
      id,
      cases.map(([eventId, start, end, zone]) =>
        event(eventId, start, { end_date: end, ...(zone ? { timezone: zone } : {}) }),
      ),
    );
    for (const [eventId, , , , start, end] of cases) {
      const data = (await t.get(`/admin/v0/calendar_events/${eventId}`, token)).json().data;
      expect([eventId, data.start_date, data.end_date]).toEqual([eventId, start, end]);
    }
  });
});

describe('bare ids and null nested scalars', () => {
  it("takes a post's and a comment's author as a bare profile id", async () => {
    const { id, token } = await fresh();
    await t.importRecords(id, [
      post('postbareaut1', { author: profileIds.grace }),
      {
        kind: 'comment',
        id: 'combareaut01',
        post_id: 'postbareaut1',
        created_at: '2026-03-01T11:00:00Z',
        author: profileIds.ada,
        body_plaintext: 'Welcome!',
      },
    ]);
    const answered = (await t.get('/admin/v0/posts/postbareaut1', token)).json().data;
    expect([answered.author_profile_id, answered.author.profile_id, answered.author.preferred_name]).toEqual([
      profileIds.grace,
      profileIds.grace,
      'Grace Hopper',
    ]);
    const comment = await t.testStore.store.db
      .selectFrom('comments')
      .select('author_profile_id')
      .where('community_id', '=', id)
      .where('id', '=', 'combareaut01')
      .executeTakeFirst();
    expect(comment?.author_profile_id).toBe(profileIds.ada);
    const error = await failure(id, [post('postbareaut2', { author: '99999999-9999-4999-8999-999999999999' })]);
    expect(error.message).toBe(
      "line 1: author: profile '99999999-9999-4999-8999-999999999999' does not exist in the file or the community",
    );
  });

  it("accepts null for a custom emoji's alias, and answers it", async () => {
    const { id, token } = await fresh();
    const references = {
      mentioned_chat_users: [],
      mentioned_chat_channels: [],
      custom_emojis: [{ alias: null, name: 'partyparrot', url: 'https://emoji.example.com/partyparrot.gif' }],
      urls: [],
    };
    await t.importRecords(id, [post('postemojinul', { references })]);
    expect((await t.get('/admin/v0/posts/postemojinul', token)).json().data.references).toEqual(references);
  });
});

describe('every bad line in one run', () => {
  it("names every bad line with a plain reason, the store's findings included", async () => {
    const { id } = await fresh();
    const error = await failure(id, [
      post('postgood0001'),
      post('POST-BAD'),
      '{"kind":"tag","id":"t"}',
      post('postgood0002', { feed_id: '99999999-9999-4999-8999-999999999999' }),
      '{nope',
      { kind: 'profile', profile_id: profileIds.ada, preferred_name: 'A\u0000da' },
      post('postgood0003', { author_profile_id: 'ada', reactions_count: -1 }),
    ]);
    expect(error.problems).toEqual([
      { line: 2, reason: 'post: id must be 12 lowercase letters or digits' },
      { line: 3, reason: 'tag: label is required' },
      {
        line: 4,
        reason: "feed: feed '99999999-9999-4999-8999-999999999999' does not exist in the file or the community",
      },
      { line: 5, reason: expect.stringMatching(/^not valid JSON \(/) },
      { line: 6, reason: 'profile: preferred_name must not contain the NUL character' },
      {
        line: 7,
        reason:
          'post: author_profile_id must be a UUID (8-4-4-4-12 hexadecimal digits) or null; reactions_count must be 0 or more',
      },
    ]);
    expect(error.message.split('\n')[0]).toBe('6 problems:');
    expect(error.message.split('\n')[2]).toBe('line 3: tag: label is required');
  });

  // PostgreSQL refused a lone surrogate (jsonb 22P02) where SQLite stored it: now both refuse the line, naming it.
  it('refuses text with a lone surrogate on every store, naming the line and the field', async () => {
    const { id } = await fresh();
    const error = await failure(id, [
      post('postgood0001'),
      post('postlone0001', { title: 'Hello \ud800' }),
      { kind: 'profile', profile_id: profileIds.ada, preferred_name: '\udc00Ada' },
      post('postlone0002', {
        chat_message: { blocks: [{ type: 'rich_text', elements: [{ type: 'text', text: '\udbff' }] }] },
      }),
      post('postgood0002', { title: 'Party \ud83d\ude00' }),
    ]);
    const rule = 'must not contain a lone surrogate (half of a UTF-16 pair)';
    expect(error.problems).toEqual([
      { line: 2, reason: `post: title ${rule}` },
      { line: 3, reason: `profile: preferred_name ${rule}` },
      { line: 4, reason: `post: chat_message.blocks.0.elements.0.text ${rule}` },
    ]);
  });

  it('stops reading after 100 problems, and says so', async () => {
    const { id } = await fresh();
    const lines = Array.from({ length: 150 }, (_, i) => `{"kind":"tag","id":"t${i}"}`);
    const error = await failure(id, lines);
    expect(error.problems).toHaveLength(100);
    expect(error.problems.at(-1)).toEqual({ line: 100, reason: 'tag: label is required' });
    expect(error.message.split('\n')[0]).toBe('At least 100 problems (the report stops there):');
  });

  it('names the first 100 lines that link to missing records, however many lines name each', async () => {
    const { id } = await fresh();
    const missing = ['99999999-9999-4999-8999-999999999991', '99999999-9999-4999-8999-999999999992'];
    const lines = Array.from({ length: 250 }, (_, i) =>
      post(`postmany${String(i).padStart(4, '0')}`, {
        author_profile_id: i < 240 ? missing[i % 2] : profileIds.ada,
      }),
    );
    const error = await failure(id, lines);
    expect(error.problems).toEqual(
      Array.from({ length: 100 }, (_, i) => ({
        line: i + 1,
        reason: `author: profile '${missing[i % 2]}' does not exist in the file or the community`,
      })),
    );
    expect(error.message.split('\n')[0]).toBe('At least 100 problems (the report stops there):');
  });

  it('names, from the worker thread, only the lines naming records the store lacks as well', async () => {
    const { id } = await fresh();
    const missing = '99999999-9999-4999-8999-999999999993';
    // Lines naming a profile the store holds, a feed and a post it lacks, and a post of the file.
    const records = [
      post('poststream01', { author_profile_id: profileIds.ada }),
      post('poststream02', { author_profile_id: missing }),
      post('poststream03', { feed_id: '99999999-9999-4999-8999-999999999994' }),
      { kind: 'comment', id: 'commentstr01', post_id: 'poststream01', created_at: '2026-03-01T11:00:00Z' },
      { kind: 'comment', id: 'commentstr02', post_id: 'postnothere1', created_at: '2026-03-01T11:00:00Z' },
      post('poststream04', { author_profile_id: missing }),
    ];
    const input = Readable.from([Buffer.from(records.map((r) => JSON.stringify(r)).join('\n'))]);
    const error = await importStream(t.testStore.store, id, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 2, reason: `author: profile '${missing}' does not exist in the file or the community` },
      {
        line: 3,
        reason: "feed: feed '99999999-9999-4999-8999-999999999994' does not exist in the file or the community",
      },
      { line: 5, reason: "parent post: post 'postnothere1' does not exist in the file or the community" },
      { line: 6, reason: `author: profile '${missing}' does not exist in the file or the community` },
    ]);
    expect(
      await t.testStore.store.db.selectFrom('posts').select('id').where('community_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('checks a whole file without writing anything in a dry run', async () => {
    const { id } = await fresh();
    const count = async () =>
      (await t.testStore.store.db.selectFrom('posts').select('id').where('community_id', '=', id).execute()).length;
    const summary = await importLines(
      t.testStore.store,
      id,
      [JSON.stringify(post('postdryrun01')), JSON.stringify(post('postdryrun02'))],
      { dryRun: true },
    );
    expect(summary).toEqual({
      records: 2,
      feeds: 0,
      profiles: 0,
      tags: 0,
      calendar_events: 0,
      posts: 2,
      comments: 0,
      badges: 0,
      groups: 0,
    });
    expect(await count()).toBe(0);
    const error = await failure(id, [post('postdryrun03', { author: '99999999-9999-4999-8999-999999999999' })], {
      dryRun: true,
    });
    expect(error.message).toMatch(/^line 1: author: profile '.*' does not exist in the file or the community$/);
    expect(await count()).toBe(0);
  });
});

describe('hearth import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-import-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      args,
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { DATABASE_URL: t.testStore.url },
      { stdin: Readable.from(['']), stdout: new PassThrough(), progress: new PassThrough() },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('reports every bad line, checks with --dry-run and drops unknown fields with --ignore-unknown', async () => {
    const { slug } = await fresh();
    const file = join(dir, 'posts.ndjson');
    writeFileSync(
      file,
      [post('postcli00001', { titel: 'x' }), post('postcli00002', { feed_id: 'general' })]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect(await run(['import', '--community', slug, file])).toEqual({
      code: 1,
      out: '',
      err: [
        'hearth: Import failed, nothing was kept: 2 problems:',
        "line 1: post: unknown field 'titel' (did you mean 'title'?)",
        'line 2: post: feed_id must be a UUID (8-4-4-4-12 hexadecimal digits)',
      ].join('\n'),
    });
    writeFileSync(file, JSON.stringify(post('postcli00003', { titel: 'x' })));
    expect((await run(['import', '--community', slug, '--dry-run', file])).err).toBe(
      "hearth: Dry run: line 1: post: unknown field 'titel' (did you mean 'title'?)",
    );
    expect(await run(['import', '--community', slug, '--dry-run', '--ignore-unknown', file])).toEqual({
      code: 0,
      out: `Checked 1 records: 1 posts; all would import into '${slug}' (dry run: nothing was written).`,
      err: "Ignored 1 unknown field: 'titel' (line 1).",
    });
    expect((await run(['import', '--community', slug, '--ignore-unknown', file])).out).toMatch(
      new RegExp(`^Imported 1 records into '${slug}': 1 posts in \\d+\\.\\d s \\(\\d+ records/s\\)\\.$`),
    );
  });
});
