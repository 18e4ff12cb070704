// Few matches of required words and phrases on SQLite, read and scored from their texts (sqlite-search-few.ts): on
// random corpora the ranking is exact bm25's, in order and to the last bit, with the exact total; queries it does not
// serve are declined; a write is seen at once. Through the index (default shape) every page stays exact on both stores.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords } from '../../fixtures/community.js';
import { windowIds } from '../../src/search/ranked-window.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { fewMatchesRanking } from '../../src/search/sqlite-search-few.js';
import { toFts5Match } from '../../src/search/sqlite-search-query.js';
import { buildSearchImpacts } from '../../src/search/sqlite-search-impacts-build.js';
import { keysReader, rangeOf, scopeOf } from '../../src/search/sqlite-search-statements.js';
import { datedPost as post } from '../helpers/dated-post.js';
import { expectPagesExact } from '../helpers/exact-pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

const FREQUENT = ['amber', 'birch', 'cedar'];
const RARE = ['ember', 'fjord', 'grove'];
const DOCS = 160;
const FILLER = 200;
/** Frequent words get postings (and so count towards reading); rare words have none. */
const SHAPE = { minDocs: 60, depth: 4 };
/** Read whenever there are at most 1,000 matches: every query of this corpus that has a frequent word. */
const READ_ALL = { postsPerMatch: 0.01, mostRead: 1000 };

let t: TestApp;
let community: string;
let sqlite: boolean;

const anyWord = fc.oneof(
  { arbitrary: fc.constantFrom(...FREQUENT), weight: 8 },
  { arbitrary: fc.constantFrom(...RARE), weight: 1 },
);
const text = (max: number) => fc.array(anyWord, { minLength: 0, maxLength: max }).map((words) => words.join(' '));
const doc = fc.record({ title: text(3), body: text(16), day: fc.integer({ min: 1, max: 28 }) });
const phrase = fc.array(anyWord, { minLength: 2, maxLength: 2 }).map((words) => `"${words.join(' ')}"`);
const clause = fc.oneof({ arbitrary: anyWord, weight: 4 }, { arbitrary: phrase, weight: 1 });
/** At least one frequent word standing alone: the queries whose reading saves bm25's walk of it. */
const query = fc
  .tuple(fc.constantFrom(...FREQUENT), fc.array(clause, { minLength: 0, maxLength: 2 }))
  .map(([word, clauses]) => [word, ...clauses].join(' '));

beforeAll(async () => {
  t = await createTestApp();
  ({ community } = await t.seed('few', baseRecords));
  sqlite = t.testStore.store.dialect.name === 'sqlite';
  const docs = fc.sample(doc, { numRuns: DOCS, seed: 50 });
  await t.importRecords(community, [
    ...docs.map((d, i) => post(`fewpost${String(i).padStart(5, '0')}`, d.title || null, d.body, d.day)),
    // Posts of none of the words: no IDF is bm25's floor (1e-6), so a wrong count would show in the scores.
    ...Array.from({ length: FILLER }, (_, i) => post(`filler${String(i).padStart(6, '0')}`, null, 'zinc', i)),
  ]);
  if (sqlite) await t.testStore.store.db.transaction().execute((trx) => buildSearchImpacts(trx, community, SHAPE));
});
afterAll(() => t.close());

const exact = (q: string) =>
  exactSearch(t.testStore.store.dialect)(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
    limit: 1000,
    offset: 0,
  });
const search = (q: string, offset: number, limit: number) =>
  searchIndexFor(t.testStore.store.dialect).search(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
    offset,
    limit,
  });
const ranking = async (q: string, shape = READ_ALL) => {
  const db = t.testStore.store.db;
  const range = await rangeOf(db, community);
  if (!range) throw new Error('no range');
  return fewMatchesRanking(db, scopeOf('post'), range, parseSearchQuery(q), shape);
};
/** The ranking's ids in search's full order, as a page of every match shows them. */
const idsOf = async (q: string) => {
  const got = await ranking(q);
  if (!got) throw new Error(`declined: ${q}`);
  const ids = await windowIds(
    got.ranked,
    { offset: 0, limit: 1000 },
    keysReader(t.testStore.store.db, scopeOf('post')),
  );
  return { ids, total: got.total, ranked: got.ranked };
};

describe.runIf(testDatabaseUrl === null)('few matches read from their texts', () => {
  it('ranks every match as exact bm25 does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const expected = await exact(q);
        const got = await idsOf(q);
        expect(got.total, q).toBe(expected.length);
        expect(got.ids, q).toEqual(expected);
      }),
      { numRuns: 60, seed: 51 },
    );
  });

  it("scores as FTS5's bm25 does, to the last bit, with one community indexed or two", async () => {
    const db = t.testStore.store.db;
    const check = async () => {
      for (const q of [
        'amber birch',
        'cedar "amber birch"',
        'amber "amber amber"',
        'birch ember',
        'grove cedar amber',
      ]) {
        const { ranked } = await idsOf(q);
        const { rows } = await sql<{ docid: number; score: number }>`
          select rowid as docid, bm25(post_search, 10.0, 1.0) as score from post_search
          where post_search match ${toFts5Match(parseSearchQuery(q))} and rowid in (select value from json_each(${JSON.stringify(
            ranked.map((row) => row.docid),
          )}))`.execute(db);
        const fts5 = new Map(rows.map((row) => [row.docid, row.score]));
        expect(
          ranked.map((row) => row.score),
          q,
        ).toEqual(ranked.map((row) => fts5.get(row.docid)));
      }
    };
    const communities = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from search_communities`.execute(db)).rows[0]?.n);
    expect(await communities()).toBe(1);
    await check();
    const other = await t.seed('few-other', baseRecords);
    await t.importRecords(other.community, [post('otherpost001', 'amber birch', 'amber birch cedar grove', 2)]);
    expect(await communities()).toBe(2);
    await check();
  });

  it('declines an OR, an exclusion, words without postings, and more matches than reading saves', async () => {
    for (const q of ['amber OR birch', 'amber -birch', 'ember fjord', '"ember grove"'])
      expect(await ranking(q), q).toBeNull();
    const all = await exact('amber');
    expect(all.length).toBeGreaterThan(5);
    expect(await ranking('amber', { postsPerMatch: 0.01, mostRead: all.length - 1 })).toBeNull();
    expect((await ranking('amber', { postsPerMatch: 0.01, mostRead: all.length }))?.total).toBe(all.length);
    // The frequent words' posts over postsPerMatch bound the reading too.
    expect(await ranking('amber', { postsPerMatch: 1_000_000, mostRead: 1000 })).toBeNull();
  });

  it('sees a new post and a deleted one at once', async () => {
    const q = 'birch grove';
    const before = await exact(q);
    await t.importRecords(community, [post('fewnewpost01', 'birch grove', 'grove birch', 3)]);
    let got = await idsOf(q);
    expect(got.ids).toContain('fewnewpost01');
    expect(got.ids).toEqual(await exact(q));
    await t.testStore.store.db
      .deleteFrom('posts')
      .where('community_id', '=', community)
      .where('id', '=', 'fewnewpost01')
      .execute();
    got = await idsOf(q);
    expect(got.total).toBe(before.length);
    expect(got.ids).not.toContain('fewnewpost01');
    expect(got.ids).toEqual(await exact(q));
  });
});

describe('word searches with few matches, through the index', () => {
  it('answers every page as the exact ranking does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 9 }), async (q, perPage) => {
        await expectPagesExact(search, q, perPage, await exact(q));
      }),
      { numRuns: 30, seed: 52 },
    );
  });
});
