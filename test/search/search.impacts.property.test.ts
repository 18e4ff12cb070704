// One-word search on impact postings (SQLite, migration 022) ranks as exact bm25 over every match does, on random
// corpora cut into shallow groups: every page, exact totals, pages that never repeat or skip, and postings that follow
// inserts, edits and deletes at once. On PostgreSQL the same queries are checked against its exact ranking.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords } from '../../fixtures/community.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { impactRanking } from '../../src/search/sqlite-search-impacts.js';
import { buildSearchImpacts } from '../../src/search/sqlite-search-impacts-build.js';
import { datedPost } from '../helpers/dated-post.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { expectPagesExact } from '../helpers/exact-pages.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord'];
const DOCS = 150;
/** Small enough that every word gets postings and most groups are cut: the bounds are exercised, not only the rows. */
const SHAPE = { minDocs: 10, depth: 2 };

let t: TestApp;
let community: string;
let sqlite: boolean;

const word = fc.constantFrom(...WORDS);
const text = (max: number) => fc.array(word, { minLength: 0, maxLength: max }).map((words) => words.join(' '));
const doc = fc.record({ title: text(3), body: text(25), day: fc.integer({ min: 1, max: 28 }) });

const post = datedPost;

beforeAll(async () => {
  t = await createTestApp();
  ({ community } = await t.seed('impacts', baseRecords));
  sqlite = t.testStore.store.dialect.name === 'sqlite';
  const docs = fc.sample(doc, { numRuns: DOCS, seed: 42 });
  await t.importRecords(
    community,
    docs.map((d, i) => post(`impact${String(i).padStart(6, '0')}`, d.title || null, d.body, d.day)),
  );
  if (sqlite) await t.testStore.store.db.transaction().execute((trx) => buildSearchImpacts(trx, community, SHAPE));
});
afterAll(() => t.close());

const index = () => searchIndexFor(t.testStore.store.dialect);
const search = (q: string, offset: number, limit: number) =>
  index().search(t.testStore.store.db, 'post', community, parseSearchQuery(q), { offset, limit });
const exact = (q: string) =>
  exactSearch(t.testStore.store.dialect)(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
    limit: 1000,
    offset: 0,
  });

/** The community's number (migration 002), for asking the postings directly. */
async function communityNumber(): Promise<number> {
  const { rows } = await sql<{ number: number }>`
    select number from search_communities where community_id = ${community}`.execute(t.testStore.store.db);
  return rows[0]?.number ?? -1;
}

describe('one-word search on impact postings', () => {
  it.runIf(testDatabaseUrl === null)('has postings for every word of the corpus', async () => {
    const number = await communityNumber();
    for (const w of WORDS) {
      const ranking = await impactRanking(t.testStore.store.db, number, w, 1);
      expect(ranking?.total, w).toBe((await exact(w)).length);
    }
  });

  it('answers every page as the exact ranking does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(word, fc.integer({ min: 1, max: 12 }), async (q, perPage) => {
        const expected = await exact(q);
        await expectPagesExact(search, q, perPage, expected);
      }),
      { numRuns: 30, seed: 43 },
    );
  });

  it('follows inserts, edits and deletes at once', async () => {
    const store = t.testStore.store;
    const before = await exact('cedar');
    await t.importRecords(community, [post('impactnew001', 'cedar cedar', 'cedar', 5)]);
    let got = await search('cedar', 0, 1000);
    expect(got.total).toBe(before.length + 1);
    expect(got.ids[0]).toBe('impactnew001');
    expect(got.ids).toEqual(await exact('cedar'));
    // An edit: the post leaves cedar's postings and joins quartz's matches.
    await t.importRecords(community, [post('impactnew001', 'quartz', 'quartz birch', 5)]);
    got = await search('cedar', 0, 1000);
    expect(got.total).toBe(before.length);
    expect(got.ids).toEqual(before);
    expect((await search('birch', 0, 1000)).ids).toEqual(await exact('birch'));
    // A delete: the post stops matching, and so does any deleted post that was ranked first.
    const first = before[0] ?? '';
    await store.db
      .deleteFrom('posts')
      .where('community_id', '=', community)
      .where('id', 'in', [first, 'impactnew001'])
      .execute();
    got = await search('cedar', 0, 1000);
    expect(got.total).toBe(before.length - 1);
    expect(got.ids).toEqual(before.slice(1));
    for (const w of WORDS) expect((await search(w, 0, 1000)).ids, w).toEqual(await exact(w));
  });

  it.runIf(testDatabaseUrl === null)('keeps the same postings as a fresh build after writes', async () => {
    const store = t.testStore.store;
    const number = await communityNumber();
    const snapshot = async () =>
      (
        await sql<{ term: string; docs: number }>`
          select term, docs from post_search_terms where community = ${number} order by term`.execute(store.db)
      ).rows;
    const counts = await snapshot();
    await store.db.transaction().execute((trx) => buildSearchImpacts(trx, community, SHAPE));
    expect(await snapshot()).toEqual(counts);
  });
});
