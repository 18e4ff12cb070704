// Listing a feed's posts and the Home feed: exact orders with ties, pages, and totals kept on feeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { feedIds, feeds } from '../../fixtures/community.js';
import { postIds, postRecords } from '../../fixtures/posts.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', postRecords));
});
afterAll(() => t.close());

const page = async (feed: string, query = '', as = token) => {
  const res = await t.get(`/admin/v0/feeds/${feed}/posts${query}`, as);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const ids = async (feed: string, query = '', as = token) =>
  (await page(feed, query, as)).records.map((r: { id: string }) => r.id);

const { welcome, plain, tieA, tieB, events, prose, archived, staff } = postIds;

describe('GET /admin/v0/feeds/:feed_id/posts: order', () => {
  it('lists a feed newest first by default, ties broken by id descending, with the envelope', async () => {
    const { records, ...envelope } = await page(feedIds.general);
    expect(envelope).toEqual({ page: 0, per_page: 10, count: 4, total_records: 4, total_pages: 1, has_next: false });
    expect(records.map((r: { id: string }) => r.id)).toEqual([tieB, tieA, plain, welcome]);
    expect(await ids(feedIds.general, '?sort=newest')).toEqual([tieB, tieA, plain, welcome]);
  });

  it('sorts oldest first with ties by id ascending', async () => {
    expect(await ids(feedIds.general, '?sort=oldest')).toEqual([welcome, plain, tieA, tieB]);
  });

  it('sorts by latest activity, which comments move: the welcome post passes the plain one', async () => {
    expect(await ids(feedIds.general, '?sort=most-recent-activity')).toEqual([tieB, tieA, welcome, plain]);
  });

  it('lists Home from every feed that is neither archived nor unlisted, in each order', async () => {
    expect(await ids('home')).toEqual([tieB, tieA, events, plain, welcome, prose]);
    expect(await ids('home', '?sort=oldest')).toEqual([prose, welcome, plain, events, tieA, tieB]);
    expect(await ids('home', '?sort=most-recent-activity')).toEqual([tieB, tieA, welcome, events, plain, prose]);
    expect((await page('home')).total_records).toBe(6);
  });

  it('lists archived and unlisted feeds by their id', async () => {
    const archivedPage = await page(feedIds.archived);
    expect([archivedPage.total_records, archivedPage.records.map((r: { id: string }) => r.id)]).toEqual([
      1,
      [archived],
    ]);
    expect(await ids(feedIds.unlisted)).toEqual([staff]);
  });

  it('lists a feed without posts as an empty page', async () => {
    const community = await t.community('empty');
    await t.importRecords(community, feeds);
    expect(await page(feedIds.general, '', await t.token(community))).toEqual({
      page: 0,
      per_page: 10,
      count: 0,
      total_records: 0,
      total_pages: 0,
      has_next: false,
      records: [],
    });
    expect((await page('home', '', await t.token(community))).total_records).toBe(0);
  });
});

describe('GET /admin/v0/feeds/:feed_id/posts: pages', () => {
  for (const sort of ['newest', 'oldest', 'most-recent-activity']) {
    it(`walks Home four at a time (${sort}) returning every post exactly once, in the order of one big page`, async () => {
      const all = await ids('home', `?sort=${sort}&per_page=100`);
      const seen: string[] = [];
      for (let n = 0; ; n++) {
        const data = await page('home', `?sort=${sort}&per_page=4&page=${n}`);
        expect([data.total_records, data.total_pages, data.count]).toEqual([6, 2, n === 0 ? 4 : 2]);
        seen.push(...data.records.map((r: { id: string }) => r.id));
        expect(data.has_next).toBe(n === 0);
        if (!data.has_next) break;
      }
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(6);
    });
  }

  it('answers an empty page past the end', async () => {
    expect(await page(feedIds.general, '?per_page=3&page=5')).toEqual({
      page: 5,
      per_page: 3,
      count: 0,
      total_records: 4,
      total_pages: 2,
      has_next: false,
      records: [],
    });
  });

  it('pages through many posts sharing one timestamp by id', async () => {
    const community = await t.community('ties');
    const many = Array.from({ length: 25 }, (_, i) => ({
      kind: 'post',
      id: `tie${String(24 - i).padStart(9, '0')}`,
      created_at: '2026-03-01T00:00:00Z',
      feed_id: feedIds.general,
    }));
    await t.importRecords(community, [...feeds, ...many]);
    const tiesToken = await t.token(community);
    const sorted = many.map((p) => p.id).sort();
    for (const [sort, expected] of [
      ['oldest', sorted],
      ['newest', [...sorted].reverse()],
    ] as const) {
      const seen: string[] = [];
      for (let n = 0; n < 3; n++)
        seen.push(...(await ids(feedIds.general, `?sort=${sort}&per_page=10&page=${n}`, tiesToken)));
      expect(seen).toEqual(expected);
    }
  });
});

describe('totals', () => {
  const postsCount = async (communityId: string) => {
    const rows = await t.testStore.store.db
      .selectFrom('feeds')
      .select(['id', 'posts_count'])
      .where('community_id', '=', communityId)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.id, Number(r.posts_count)]));
  };

  it('equal the counts kept on feeds, and follow a post that moves feed in a re-import', async () => {
    const community = await t.community('moves');
    const movesToken = await t.token(community);
    const post = (id: string, feed_id: string) => ({ kind: 'post', id, created_at: '2026-03-01T00:00:00Z', feed_id });
    await t.importRecords(community, [
      ...feeds,
      post('moving000001', feedIds.general),
      post('staying00001', feedIds.general),
      post('staying00002', feedIds.events),
    ]);
    const totals = async () => ({
      general: (await page(feedIds.general, '', movesToken)).total_records,
      events: (await page(feedIds.events, '', movesToken)).total_records,
      archived: (await page(feedIds.archived, '', movesToken)).total_records,
      home: (await page('home', '', movesToken)).total_records,
    });
    expect(await totals()).toEqual({ general: 2, events: 1, archived: 0, home: 3 });
    expect(await postsCount(community)).toEqual({
      [feedIds.general]: 2,
      [feedIds.events]: 1,
      [feedIds.archived]: 0,
      [feedIds.unlisted]: 0,
    });

    await t.importRecords(community, [post('moving000001', feedIds.events)]);
    expect(await totals()).toEqual({ general: 1, events: 2, archived: 0, home: 3 });
    expect(await ids(feedIds.events, '?sort=oldest', movesToken)).toEqual(['moving000001', 'staying00002']);

    // Into an archived feed: it leaves Home's records and total alike.
    await t.importRecords(community, [post('moving000001', feedIds.archived)]);
    expect(await totals()).toEqual({ general: 1, events: 1, archived: 1, home: 2 });
    expect(await ids('home', '', movesToken)).toEqual(['staying00002', 'staying00001']);
    expect(await postsCount(community)).toEqual({
      [feedIds.general]: 1,
      [feedIds.events]: 1,
      [feedIds.archived]: 1,
      [feedIds.unlisted]: 0,
    });

    // A feed archived later leaves Home too, without touching a post.
    await t.importRecords(community, [{ ...feeds[1], is_archived: true }]);
    expect(await totals()).toEqual({ general: 1, events: 1, archived: 1, home: 1 });
    expect(await ids('home', '', movesToken)).toEqual(['staying00001']);
  });

  it('are read from the feed rows, not counted: a stale count shows as the total', async () => {
    const community = await t.community('counted');
    const countedToken = await t.token(community);
    await t.importRecords(community, [
      ...feeds,
      { kind: 'post', id: 'onlypost0001', created_at: '2026-03-01T00:00:00Z', feed_id: feedIds.general },
    ]);
    // Planted by hand to prove where the number comes from; the import never leaves it so.
    await t.testStore.store.db
      .updateTable('feeds')
      .set({ posts_count: 1234 })
      .where('community_id', '=', community)
      .where('id', '=', feedIds.general)
      .execute();
    expect((await page(feedIds.general, '', countedToken)).total_records).toBe(1234);
    expect((await page('home', '', countedToken)).total_records).toBe(1234);
  });
});
