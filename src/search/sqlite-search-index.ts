// Search on SQLite: FTS5 MATCH confined to the community's docid range, ranked by bm25 (title 10, body 1), large answers ranked on a budget.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { rankedThrough, windowIds, type DocKey, type Scored } from './ranked-window.js';
import type { SearchBudget } from './search-budget.js';
import type { SearchHits, SearchIndex, SearchKind, SearchWindow } from './search-index.js';
import type { SearchQuery } from './search-query.js';
import { toFts5Candidates, toFts5Match } from './sqlite-search-query.js';

const tables: Record<SearchKind, { fts: string; docs: string; weights: RawBuilder<unknown>; title: string | null }> = {
  post: { fts: 'post_search', docs: 'post_search_docs', weights: sql.raw('10.0, 1.0'), title: 'title' },
  comment: { fts: 'comment_search', docs: 'comment_search_docs', weights: sql.raw('1.0'), title: null },
};

/** One kind's index within one community, as SQL fragments. */
interface Scope {
  readonly fts: RawBuilder<unknown>;
  readonly docs: RawBuilder<unknown>;
  readonly bm25: RawBuilder<unknown>;
  /** The community's docid range (migration 002); no number yet means no document yet, and NULL bounds match nothing. */
  readonly inCommunity: RawBuilder<unknown>;
}

function scopeOf(kind: SearchKind, communityId: string): Scope {
  const { fts: ftsName, docs, weights } = tables[kind];
  const fts = sql.table(ftsName);
  return {
    fts,
    docs: sql.table(docs),
    bm25: sql`bm25(${fts}, ${weights})`,
    inCommunity: sql`${fts}.rowid between
      (select number * 4294967296 from search_communities where community_id = ${communityId}) and
      (select number * 4294967296 + 4294967295 from search_communities where community_id = ${communityId})`,
  };
}

/** The exact number of matches: doclists only, no row of posts, comments or docs is read. */
async function countMatches(db: Kysely<Database>, scope: Scope, match: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    select count(*) as total from ${scope.fts} where ${scope.fts} match ${match} and ${scope.inCommunity}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** The `limit` best matches by bm25 alone (no docs join: ties are broken later for the page only), without those of `except`. */
async function bestMatches(
  db: Kysely<Database>,
  scope: Scope,
  match: string,
  limit: number,
  except: RawBuilder<unknown> | null,
): Promise<Scored[]> {
  const { fts } = scope;
  const { rows } = await sql<Scored>`
    select ${fts}.rowid as docid, ${scope.bm25} as score from ${fts}
    where ${fts} match ${match} and ${scope.inCommunity} ${except ? sql`and +${fts}.rowid not in (${except})` : sql``}
    order by score limit ${limit}`.execute(db);
  return rows;
}

/**
 * The best `count` matches of `likeliest` (toFts5Candidates: title hits, and matches of every
 * alternative), ranked by that query's own bm25, which ranks alike but not exactly. `rowid desc`
 * makes the choice among equal scores the same at every request.
 */
const candidatesOf = (scope: Scope, likeliest: string, count: number): RawBuilder<unknown> => sql`
  select ${scope.fts}.rowid from ${scope.fts} where ${scope.fts} match ${likeliest} and ${scope.inCommunity}
  order by ${scope.bm25}, ${scope.fts}.rowid desc limit ${count}`;

/**
 * The exact bm25 of the candidates. `+rowid` keeps the IN a filter on the walk of the doclists: as an
 * index constraint FTS5 would be queried once per candidate, computing bm25's IDF (a walk of each
 * term's doclist) every time.
 */
async function scoredCandidates(
  db: Kysely<Database>,
  scope: Scope,
  match: string,
  candidates: RawBuilder<unknown>,
): Promise<Scored[]> {
  const { fts } = scope;
  const { rows } = await sql<Scored>`
    select ${fts}.rowid as docid, ${scope.bm25} as score from ${fts}
    where ${fts} match ${match} and ${scope.inCommunity} and +${fts}.rowid in (${candidates})
    order by score`.execute(db);
  return rows;
}

function keysReader(db: Kysely<Database>, scope: Scope) {
  return async (docids: number[]): Promise<DocKey[]> => {
    if (docids.length === 0) return [];
    const { rows } = await sql<DocKey>`
      select docid, id, created_at as "createdAt" from ${scope.docs} where docid in (${sql.join(docids)})`.execute(db);
    return rows;
  };
}

/** Best match first over every match: the window's end (and its ties) ranked by bm25, dates read for the window alone. */
async function exactWindow(
  db: Kysely<Database>,
  scope: Scope,
  match: string,
  window: SearchWindow,
  except: RawBuilder<unknown> | null = null,
): Promise<string[]> {
  const rows = await rankedThrough(window.offset + window.limit, (limit) =>
    bestMatches(db, scope, match, limit, except),
  );
  return windowIds(rows, window, keysReader(db, scope));
}

/**
 * More matches than the budget: the title candidates first, in exact order, then every other match in
 * exact order (read only by a page beyond the candidates). Pages stay disjoint and complete, and a
 * page within the candidates scores every title hit once (by the title query) and the candidates exactly.
 */
async function budgetedWindow(
  db: Kysely<Database>,
  scope: Scope,
  match: string,
  candidates: RawBuilder<unknown>,
  window: SearchWindow,
): Promise<string[]> {
  const first = await scoredCandidates(db, scope, match, candidates);
  const end = window.offset + window.limit;
  const ids = await windowIds(first, window, keysReader(db, scope));
  if (end <= first.length) return ids;
  const offset = Math.max(0, window.offset - first.length);
  return [...ids, ...(await exactWindow(db, scope, match, { offset, limit: end - first.length - offset }, candidates))];
}

export function createSqliteSearchIndex(budget: SearchBudget): SearchIndex {
  return {
    async search(db, kind, communityId, query: SearchQuery, window): Promise<SearchHits> {
      const match = toFts5Match(query);
      if (match === null) return { ids: [], total: 0 };
      const scope = scopeOf(kind, communityId);
      const total = await countMatches(db, scope, match);
      if (window.offset >= total) return { ids: [], total };
      const title = tables[kind].title;
      const likeliest = title !== null && total > budget.rankBudget ? toFts5Candidates(query, title) : null;
      const ids =
        likeliest === null
          ? await exactWindow(db, scope, match, window)
          : await budgetedWindow(db, scope, match, candidatesOf(scope, likeliest, budget.titleCandidates), window);
      return { ids, total };
    },
  };
}
