// Search on crafted documents: ranking, each operator, inflections, case and accents, record shapes, highlight and paging.
// Every expectation here is the same on SQLite and PostgreSQL: both index every word (no stop words) and fold
// case, accents and English inflections; rank scores differ (bm25, ts_rank) but not on these documents' order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { adaProfile, feedIds, profileIds } from '../../fixtures/community.js';
import { commentChatMessage, searchRecords } from '../fixtures/search.js';
import build from 'fast-json-stringify';
import { toPage, type Page } from '../../src/lib/pagination.js';
import { loadPosts } from '../helpers/load-posts.js';
import { postsByIds } from '../../src/posts/posts.repository.js';
import { highlight } from '../../src/search/search-highlight.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { SearchPageResponse } from '../../src/search/search.schemas.js';

let t: TestApp;
let token: string;
let community: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token, community } = await t.seed('acme', searchRecords));
});
afterAll(() => t.close());

type Envelope = Page<{ id: string; highlight?: string }>;

async function search(q: string, type: 'post' | 'comment' = 'post', extra = ''): Promise<Envelope> {
  const res = await t.get(`/admin/v0/search?type=${type}&q=${encodeURIComponent(q)}${extra}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const ids = async (q: string, type: 'post' | 'comment' = 'post') => {
  const data = await search(q, type);
  expect(data.total_records).toBe(data.records.length);
  return data.records.map((r) => r.id);
};

describe('ranking', () => {
  it('puts a title hit above a body hit, though the body hit is newer', async () => {
    expect(await ids('lighthouse')).toEqual(['srchtitle001', 'srchbody0001']);
  });

  it('puts more hits above fewer, though the fewer are newer', async () => {
    expect(await ids('kayak')).toEqual(['srchmany0001', 'srchfew00001']);
  });

  it('puts the newer first on ties, then the greater id', async () => {
    expect(await ids('ferry')).toEqual(['srchtie00003', 'srchtie00002', 'srchtie00001']);
  });

  it('puts a shorter text above a longer one with the same hits', async () => {
    expect(await ids('canoe', 'comment')).toEqual(['srchcmt00002', 'srchcmt00001']);
  });
});

describe('operators', () => {
  it('requires every word', async () => {
    expect(await ids('red apple')).toEqual(['srchfruit002', 'srchfruit001']);
    expect(await ids('red apple pie tart')).toEqual([]);
  });

  it('matches a quoted phrase only with its words in order', async () => {
    expect(await ids('"red apple"')).toEqual(['srchfruit001']);
    expect(await ids('"apple red"')).toEqual(['srchfruit002']);
    expect(await ids('"pie red"')).toEqual([]);
    expect(await ids('"red pie"')).toEqual(['srchfruit002']);
  });

  it('excludes -words and -"phrases"', async () => {
    expect(await ids('apple -green')).toEqual(['srchfruit002', 'srchfruit001']);
    expect(await ids('apple -"red apple"')).toEqual(['srchfruit003', 'srchfruit002']);
    expect(await ids('apple -red -green')).toEqual([]);
  });

  it('takes either side of OR', async () => {
    expect(await ids('pear OR cherry')).toEqual(['srchfruit004', 'srchfruit005']);
    expect(await ids('tart OR "red apple" -pie')).toEqual(['srchfruit003']);
  });

  it('treats a lowercase or as a word, and operator characters as separators', async () => {
    expect(await ids('pear or cherry')).toEqual([]);
    expect(await ids('apple* AND (pie)')).toEqual([]);
    expect(await ids('apple* (pie)')).toEqual(['srchfruit002', 'srchfruit001']);
  });
});

describe('matching', () => {
  it('matches inflections of a word both ways', async () => {
    const all = ['srchrun00003', 'srchrun00002', 'srchrun00001'];
    expect(await ids('run')).toEqual(all);
    expect(await ids('running')).toEqual(all);
    expect(await ids('RUNS')).toEqual(all);
  });

  it('ignores case and accents, in the query and in the text', async () => {
    expect(await ids('cafe')).toEqual(['srchcafe0001', 'srchcafe0002']);
    expect(await ids('CAFÉ')).toEqual(['srchcafe0001', 'srchcafe0002']);
    expect(await ids('Cafe\u0301')).toEqual(['srchcafe0001', 'srchcafe0002']);
    expect(await ids('NAIVE')).toEqual(['srchcafe0002']);
    expect(await ids('naïve art')).toEqual(['srchcafe0002']);
  });

  it('indexes every word, common ones included', async () => {
    expect(await ids('the ferry')).toEqual(['srchtie00003', 'srchtie00002', 'srchtie00001']);
    expect(await ids('and')).toEqual(['srchfruit005']);
    expect(await ids('"the lighthouse keepers"')).toEqual(['srchbody0001']);
  });

  it('finds comments by their body only', async () => {
    expect(await ids('pwned', 'comment')).toEqual(['srchcmt00001']);
    expect(await ids('lighthouse', 'comment')).toEqual([]);
    expect(await ids('canoe', 'post')).toEqual(['srchfew00001']);
  });
});

const emptyRefs = { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] };
const general = { id: feedIds.general, label: 'General', slug: 'general' };

describe('records', () => {
  it("answers a comment as the comment record, with its parent post and that post's feed", async () => {
    const res = await t.get('/admin/v0/search?type=comment&q=pwned', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        page: 0,
        per_page: 10,
        count: 1,
        total_records: 1,
        total_pages: 1,
        has_next: false,
        records: [
          {
            id: 'srchcmt00001',
            created_at: '2025-04-01 09:30:00.250000+00',
            updated_at: '2025-04-01 09:30:00.250000+00',
            parent_post_id: 'srchtitle001',
            parent_comment_id: null,
            feed_id: feedIds.general,
            author_profile_id: profileIds.ada,
            body_plaintext: '<script>alert("pwned")</script> The canoe & the kayak',
            chat_message: commentChatMessage,
            reactions_count: 3,
            file_attachments_count: 1,
            author: adaProfile,
            feed: general,
            references: emptyRefs,
            parent_post: {
              id: 'srchtitle001',
              created_at: '2025-01-10 00:00:00.000000+00',
              title: 'Lighthouse keepers',
              slug: 'lighthouse-keepers',
            },
          },
        ],
      },
    });
    // Keys in the documented order, `success` first.
    expect(Object.keys(res.json().data.records[0])).toEqual([
      'id',
      'created_at',
      'updated_at',
      'parent_post_id',
      'parent_comment_id',
      'feed_id',
      'author_profile_id',
      'body_plaintext',
      'chat_message',
      'reactions_count',
      'file_attachments_count',
      'author',
      'feed',
      'references',
      'parent_post',
    ]);
  });

  it('answers a reply with its parent comment id', async () => {
    const [reply] = (await search('trips', 'comment')).records;
    expect(reply).toMatchObject({
      id: 'srchcmt00002',
      parent_comment_id: 'srchcmt00001',
      parent_post_id: 'srchtitle001',
      author_profile_id: profileIds.grace,
    });
  });

  it('answers a post exactly as GET /posts/:id does', async () => {
    const [found] = (await search('lighthouse')).records;
    const direct = await t.get('/admin/v0/posts/srchtitle001', token);
    expect(direct.statusCode).toBe(200);
    expect(found).toEqual(direct.json().data);
    expect(found).not.toHaveProperty('highlight');
  });
});

describe('post pages made of fragments', () => {
  /** The page as the search schema serializes records loaded from rows (the path post hits took before fragments). */
  async function serialized(q: string, page: number, perPage: number, withHighlight: boolean, total: number) {
    const db = t.testStore.store.db;
    const found = await search(q, 'post', `&page=${page}&per_page=${perPage}`);
    const posts = await loadPosts(
      db,
      community,
      await postsByIds(
        db,
        community,
        found.records.map((r) => r.id),
      ),
    );
    const query = parseSearchQuery(q);
    const records = withHighlight
      ? posts.map((post) => ({
          ...post,
          highlight: highlight(
            [post.title, post.body_plaintext].filter((x) => x !== null && x !== '').join('\n'),
            query,
          ),
        }))
      : posts;
    return build(SearchPageResponse)({ success: true, data: toPage({ page, per_page: perPage }, total, records) });
  }

  it('answers every page, with and without highlight, byte for byte as the search page schema serializes it', async () => {
    for (const extra of ['', '&highlight=true']) {
      for (const page of [0, 1]) {
        const res = await t.get(`/admin/v0/search?type=post&q=routine&page=${page}&per_page=2${extra}`, token);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toBe(await serialized('routine', page, 2, extra !== '', 3));
      }
    }
  });

  it('answers 304 to the ETag it gave, and another ETag with highlight', async () => {
    const path = '/admin/v0/search?type=post&q=lighthouse';
    const plain = await t.get(path, token);
    const marked = await t.get(`${path}&highlight=true`, token);
    expect(plain.headers['etag']).toMatch(/^"l[A-Za-z0-9_-]{27}"$/);
    expect(marked.headers['etag']).not.toBe(plain.headers['etag']);
    const again = await t.get(path, token, { 'if-none-match': String(plain.headers['etag']) });
    expect([again.statusCode, again.body]).toEqual([304, '']);
  });
});

describe('highlight', () => {
  it('adds the title and body of a post with the hits marked', async () => {
    const data = await search('lighthouse', 'post', '&highlight=true');
    expect(data.records.map((r) => [r.id, r.highlight])).toEqual([
      ['srchtitle001', '<mark>Lighthouse</mark> keepers\nStories from the rocky coast.'],
      ['srchbody0001', 'Coastal stories\nThe <mark>lighthouse</mark> keepers wrote them down.'],
    ]);
  });

  it('escapes the text: a <script> in a comment comes back inert, only hits in <mark>', async () => {
    const data = await search('canoe -trips', 'comment', '&highlight=true');
    expect(data.records.map((r) => r.highlight)).toEqual([
      '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; The <mark>canoe</mark> &amp; the kayak',
    ]);
  });

  it('marks inflections and accents the index matched', async () => {
    const run = await search('running', 'post', '&highlight=true');
    expect(run.records.map((r) => r.highlight)).toEqual([
      'Weekend routine\nHe <mark>runs</mark> on Sundays',
      'Evening routine\nShe was <mark>running</mark> late',
      'Morning routine\nI <mark>run</mark> every day',
    ]);
    const cafe = await search('cafe', 'post', '&highlight=true');
    expect(cafe.records[0]?.highlight).toBe('<mark>Café</mark> society\nMeet at the <mark>CAFÉ</mark> downtown');
  });

  it('is left out when false', async () => {
    const data = await search('lighthouse', 'post', '&highlight=false');
    expect(data.records.every((r) => !('highlight' in r))).toBe(true);
  });
});

describe('pagination', () => {
  const all = ['srchfruit004', 'srchfruit003', 'srchfruit002', 'srchfruit001', 'srchfruit005'];

  it('ranks five titles, shorter texts first, and pages through them with exact totals', async () => {
    expect(await ids('orchard')).toEqual(all);
    const pages = [];
    for (const page of [0, 1, 2, 3]) {
      const { records, ...envelope } = await search('orchard', 'post', `&per_page=2&page=${page}`);
      pages.push(...records.map((r) => r.id));
      expect(envelope).toEqual({
        page,
        per_page: 2,
        count: [2, 2, 1, 0][page],
        total_records: 5,
        total_pages: 3,
        has_next: page < 2,
      });
    }
    expect(pages).toEqual(all);
  });

  it('answers a query with no match with an empty first page', async () => {
    const { records, ...envelope } = await search('zeppelin');
    expect(records).toEqual([]);
    expect(envelope).toEqual({ page: 0, per_page: 10, count: 0, total_records: 0, total_pages: 0, has_next: false });
  });

  it('answers a query with nothing to search (punctuation, only exclusions) with zero records', async () => {
    for (const q of ['!!!', '-apple', '"', ' ', 'OR', '-"red apple" -pie']) {
      const { records, ...envelope } = await search(q);
      expect(records, q).toEqual([]);
      expect(envelope).toEqual({ page: 0, per_page: 10, count: 0, total_records: 0, total_pages: 0, has_next: false });
    }
  });
});
