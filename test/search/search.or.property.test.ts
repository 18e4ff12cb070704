// `a OR b` on SQLite ranked from the best of its intersection and of each alternative alone (sqlite-search-or.ts) answers
// as exact bm25 over every match does, on random corpora with frequent words (impact postings cut into shallow groups)
// and rare ones: every page, exact totals, pages that never repeat or skip, writes seen at once. On PostgreSQL the same
// queries are checked against its exact ranking.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { impactRanking, termIdf } from '../../src/search/sqlite-search-impacts.js';
import { orRanking } from '../../src/search/sqlite-search-or.js';
import { rangeOf, scopeOf } from '../../src/search/sqlite-search-statements.js';
import { datedPost } from '../helpers/dated-post.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import {
  aloneThenBeside,
  deletePost,
  fts5Scores,
  postSearches,
  randomPostsCommunity,
  randomWords,
} from '../helpers/random-posts.js';
import { expectPagesExact } from '../helpers/exact-pages.js';

const FREQUENT = ['amber', 'birch', 'cedar', 'delta'];
const RARE = ['ember', 'fjord'];
const DOCS = 150;
/** Frequent words get postings, most of their groups cut; rare words (about 1 in 13 draws) have none. */
const SHAPE = { minDocs: 40, depth: 2 };

let t: TestApp;
let community: string;
let search: ReturnType<typeof postSearches>['search'];
let exact: ReturnType<typeof postSearches>['exact'];

const { anyWord, post: randomPost } = randomWords(FREQUENT, RARE, 6);
const doc = randomPost(3, 20);
const phrase = fc.tuple(anyWord, anyWord).map(([a, b]) => `"${a} ${b}"`);
const alternative = fc.oneof(anyWord, phrase);
const orQuery = fc.tuple(alternative, alternative).map(([a, b]) => `${a} OR ${b}`);

const post = datedPost;

beforeAll(async () => {
  t = await createTestApp();
  community = await randomPostsCommunity(
    t,
    'alternatives',
    'either',
    fc.sample(doc, { numRuns: DOCS, seed: 44 }),
    SHAPE,
  );
  ({ search, exact } = postSearches(t, community));
});
afterAll(() => t.close());

describe('a OR b ranked from the best of each part', () => {
  it.runIf(testDatabaseUrl === null)('is the plan that answers an OR of two alternatives', async () => {
    const db = t.testStore.store.db;
    const range = await rangeOf(db, community);
    if (!range) throw new Error('no range');
    const ranking = await orRanking(db, scopeOf('post'), range, parseSearchQuery('amber OR fjord'), 10, 20_000);
    expect(ranking?.total).toBe((await exact('amber OR fjord')).length);
    expect(
      await orRanking(db, scopeOf('post'), range, parseSearchQuery('amber birch OR fjord'), 10, 20_000),
    ).toBeNull();
    expect(await orRanking(db, scopeOf('post'), range, parseSearchQuery('amber OR -fjord'), 10, 20_000)).toBeNull();
    // A part FTS5 would rank over more matches than the budget: today's budgeted path answers instead.
    expect(await orRanking(db, scopeOf('post'), range, parseSearchQuery('amber OR fjord'), 100, 5)).toBeNull();
  });

  it('answers every page as the exact ranking does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(orQuery, fc.integer({ min: 1, max: 12 }), async (q, perPage) => {
        const expected = await exact(q);
        await expectPagesExact(search, q, perPage, expected);
      }),
      { numRuns: 40, seed: 45 },
    );
  });

  it('answers a repeated alternative as the exact ranking does', async () => {
    for (const q of ['cedar OR cedar', 'cedars OR cedar', '"amber birch" OR "amber birches"', 'fjord OR fjord'])
      expect((await search(q, 0, 1000)).ids, q).toEqual(await exact(q));
    // A repeat of the same words is the query without it, on either store: the same answer, page and total.
    expect(await search('cedar fjord OR fjord cedar', 0, 1000)).toEqual(await search('cedar fjord', 0, 1000));
    expect(await search('cedar OR cedar', 2, 5)).toEqual(await search('cedar', 2, 5));
  });

  it('follows inserts, edits and deletes at once', async () => {
    const q = 'cedar OR fjord';
    const before = await exact(q);
    await t.importRecords(community, [post('eithernew001', 'fjord cedar fjord', 'cedar', 5)]);
    let got = await search(q, 0, 10);
    expect(got.total).toBe(before.length + 1);
    expect(got.ids[0]).toBe('eithernew001');
    expect((await search(q, 0, 1000)).ids).toEqual(await exact(q));
    // An edit: the post leaves both alternatives.
    await t.importRecords(community, [post('eithernew001', 'quartz', 'quartz', 5)]);
    got = await search(q, 0, 1000);
    expect(got.total).toBe(before.length);
    // The same posts; bm25's table statistics (rows, average length) moved with the new post, so the order is exact's.
    expect([...got.ids].sort()).toEqual([...before].sort());
    expect(got.ids).toEqual(await exact(q));
    // A delete: the best match stops matching.
    const first = before[0] ?? '';
    await deletePost(t, community, first);
    got = await search(q, 0, 1000);
    expect(got.total).toBe(before.length - 1);
    expect(got.ids).not.toContain(first);
    expect(got.ids).toEqual(await exact(q));
  });

  it.runIf(testDatabaseUrl === null)(
    "scores a frequent word's posts as FTS5's bm25 does, to the last bit, with one community indexed or two",
    async () => {
      const db = t.testStore.store.db;
      const range = await rangeOf(db, community);
      if (!range) throw new Error('no range');
      // The word's count stands for the table's while one community is indexed (as in the tests above); with two, the
      // doclist is walked.
      const check = async () => {
        for (const w of FREQUENT) {
          // As deep as the shallow postings prove.
          let ranking = null;
          for (let n = 10; n > 0 && !ranking; n -= 1) ranking = await impactRanking(db, range.number, w, n);
          const idf = await termIdf(db, range.number, w);
          if (!ranking || idf === null) throw new Error(`no postings for ${w}`);
          const docids = ranking.ranked.map((row) => row.docid);
          const fts5 = await fts5Scores(t, `"${w}"`, docids);
          expect(
            ranking.ranked.map((row) => idf * row.score),
            w,
          ).toEqual(docids.map((docid) => fts5.get(docid)));
        }
      };
      await aloneThenBeside(t, 'alternatives-other', { title: 'amber', body: 'cedar birch delta' }, check);
    },
  );
});
