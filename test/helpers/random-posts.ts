// A community of random posts for search's property tests: the sampled posts and fillers of none of their words, impact
// postings built on SQLite; its search through the index, its exact ranking, and how many communities are indexed.
import fc from 'fast-check';
import { sql } from 'kysely';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords } from '../../fixtures/community.js';
import type { ImpactShape } from '../../src/search/search-budget.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { buildSearchImpacts } from '../../src/search/sqlite-search-impacts-build.js';
import { datedPost } from './dated-post.js';
import type { TestApp } from './test-app.js';

export interface RandomPost {
  readonly title: string;
  readonly body: string;
  readonly day: number;
}

const FILLER = 200;

/**
 * Words drawn `frequentWeight` times as often from `frequent` as from `rare`, and posts of such words: a title of up to
 * `titleWords`, a body of up to `bodyWords`, and a day.
 */
export function randomWords(frequent: readonly string[], rare: readonly string[], frequentWeight: number) {
  const anyWord = fc.oneof(
    { arbitrary: fc.constantFrom(...frequent), weight: frequentWeight },
    { arbitrary: fc.constantFrom(...rare), weight: 1 },
  );
  const text = (max: number) => fc.array(anyWord, { minLength: 0, maxLength: max }).map((words) => words.join(' '));
  const post = (titleWords: number, bodyWords: number): fc.Arbitrary<RandomPost> =>
    fc.record({ title: text(titleWords), body: text(bodyWords), day: fc.integer({ min: 1, max: 28 }) });
  return { anyWord, post };
}

/**
 * Seeds community `name` with `posts` (ids `prefix` and a number, 12 characters) and 200 posts of the word `zinc` alone:
 * each sampled word is then in fewer than half the table's posts, so its IDF is not bm25's floor (1e-6) and a wrong
 * count would show in the scores. On SQLite, builds the impact postings in `shape`.
 */
export async function randomPostsCommunity(
  t: TestApp,
  name: string,
  prefix: string,
  posts: readonly RandomPost[],
  shape: ImpactShape,
): Promise<string> {
  const { community } = await t.seed(name, baseRecords);
  const id = (i: number) => `${prefix}${String(i).padStart(12 - prefix.length, '0')}`;
  await t.importRecords(community, [
    ...posts.map((d, i) => datedPost(id(i), d.title || null, d.body, d.day)),
    ...Array.from({ length: FILLER }, (_, i) => datedPost(`filler${String(i).padStart(6, '0')}`, null, 'zinc', i)),
  ]);
  if (t.testStore.store.dialect.name === 'sqlite')
    await t.testStore.store.db.transaction().execute((trx) => buildSearchImpacts(trx, community, shape));
  return community;
}

/** Post search in `community` through the store's index, and the exact ranking of every match to compare with. */
export function postSearches(t: TestApp, community: string) {
  const { store } = t.testStore;
  return {
    search: (q: string, offset: number, limit: number) =>
      searchIndexFor(store.dialect).search(store.db, 'post', community, parseSearchQuery(q), { offset, limit }),
    exact: (q: string) =>
      exactSearch(store.dialect)(store.db, 'post', community, parseSearchQuery(q), { limit: 1000, offset: 0 }),
  };
}

/** How many communities the SQLite search index holds: bm25's counts are the table's, not the community's, past one. */
async function indexedCommunities(t: TestApp): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from search_communities`.execute(t.testStore.store.db);
  return Number(rows[0]?.n);
}

/**
 * Runs `check` with the tests' community alone in the SQLite index (its counts stand for the table's), then again once
 * a second community `name` holds `post` (the table's are counted).
 */
export async function aloneThenBeside(
  t: TestApp,
  name: string,
  post: { title: string; body: string },
  check: () => Promise<void>,
): Promise<void> {
  if ((await indexedCommunities(t)) !== 1) throw new Error("the tests' community is not alone in the index");
  await check();
  const other = await t.seed(name, baseRecords);
  await t.importRecords(other.community, [datedPost('otherpost001', post.title, post.body, 2)]);
  if ((await indexedCommunities(t)) !== 2) throw new Error('the second community is not indexed');
  await check();
}

/** FTS5's own bm25 (title 10, body 1) of the posts `docids` for `match`, by docid. */
export async function fts5Scores(t: TestApp, match: string, docids: readonly number[]): Promise<Map<number, number>> {
  const { rows } = await sql<{ docid: number; score: number }>`
    select rowid as docid, bm25(post_search, 10.0, 1.0) as score from post_search
    where post_search match ${match} and rowid in (select value from json_each(${JSON.stringify(docids)}))`.execute(
    t.testStore.store.db,
  );
  return new Map(rows.map((row) => [row.docid, row.score]));
}

/** Deletes post `id` of `community`. */
export async function deletePost(t: TestApp, community: string, id: string): Promise<void> {
  await t.testStore.store.db.deleteFrom('posts').where('community_id', '=', community).where('id', '=', id).execute();
}
