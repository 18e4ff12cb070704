// Search on SQLite: FTS5 MATCH confined to the community's docid range, ranked by bm25 (title 10, body 1); a frequent
// word from its impact postings, other large answers ranked on a budget.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { rankedThrough, windowIds, type DocKey, type Scored } from './ranked-window.js';
import type { SearchBudget } from './search-budget.js';
import type { SearchHits, SearchIndex, SearchKind, SearchWindow } from './search-index.js';
import type { SearchQuery } from './search-query.js';
import { impactRanking } from './sqlite-search-impacts.js';
import { fts5Tokens } from './sqlite-search-words.js';
import { toFts5Candidates, toFts5Match } from './sqlite-search-query.js';

const tables: Record<SearchKind, { fts: string; docs: string; weights: RawBuilder<unknown>; title: string | null }> = {
  post: { fts: 'post_search', docs: 'post_search_docs', weights: sql.raw('10.0, 1.0'), title: 'title' },
  comment: { fts: 'comment_search', docs: 'comment_search_docs', weights: sql.raw('1.0'), title: null },
};

/** A community's number and the inclusive bounds of its docids (migration 002). */
interface Range {
  readonly number: number;
  readonly from: number;
  readonly to: number;
}

/** One kind's index, as SQL fragments. */
interface Scope {
  readonly fts: RawBuilder<unknown>;
  readonly docs: RawBuilder<unknown>;
  readonly bm25: RawBuilder<unknown>;
}

function scopeOf(kind: SearchKind): Scope {
  const { fts: ftsName, docs, weights } = tables[kind];
  const fts = sql.table(ftsName);
  return { fts, docs: sql.table(docs), bm25: sql`bm25(${fts}, ${weights})` };
}

const within = (scope: Scope, range: Range): RawBuilder<unknown> =>
  sql`${scope.fts}.rowid between ${range.from} and ${range.to}`;

/** The community's docid range; none when it has no document yet. */
async function rangeOf(db: Kysely<Database>, communityId: string): Promise<Range | null> {
  const { rows } = await sql<{ number: number }>`
    select number from search_communities where community_id = ${communityId}`.execute(db);
  const number = rows[0]?.number;
  return number === undefined ? null : { number, from: number * 4294967296, to: number * 4294967296 + 4294967295 };
}

/** The exact number of matches: doclists only, no row of posts, comments or docs is read. */
async function countMatches(db: Kysely<Database>, scope: Scope, match: string, range: Range): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    select count(*) as total from ${scope.fts} where ${scope.fts} match ${match} and ${within(scope, range)}`.execute(
    db,
  );
  return Number(rows[0]?.total ?? 0);
}

const docidList = (docids: readonly number[]) => sql`select value from json_each(${JSON.stringify(docids)})`;

/** The `limit` best matches by bm25 alone (no docs join: ties are broken later for the page only), without `except`. */
const bestMatches = (
  scope: Scope,
  match: string,
  limit: number,
  except: readonly number[],
  range: Range,
) => sql<Scored>`
  select ${scope.fts}.rowid as docid, ${scope.bm25} as score from ${scope.fts}
  where ${scope.fts} match ${match} and ${within(scope, range)}
  ${except.length > 0 ? sql`and +${scope.fts}.rowid not in (${docidList(except)})` : sql``}
  order by score limit ${limit}`;

/**
 * The best `count` matches of `likeliest` (toFts5Candidates: title hits, and matches of every
 * alternative), ranked by that query's own bm25, which ranks alike but not exactly. `rowid desc`
 * makes the choice among equal scores the same at every request.
 */
const candidatesOf = (scope: Scope, likeliest: string, count: number, range: Range) => sql<Scored>`
  select ${scope.fts}.rowid as docid, ${scope.bm25} as score from ${scope.fts}
  where ${scope.fts} match ${likeliest} and ${within(scope, range)}
  order by score, ${scope.fts}.rowid desc limit ${count}`;

/**
 * The exact bm25 of the candidates. `+rowid` keeps the IN a filter on the walk of the doclists: as an
 * index constraint FTS5 would be queried once per candidate, computing bm25's IDF (a walk of each
 * term's doclist) every time.
 */
const scoredCandidates = (scope: Scope, match: string, candidates: readonly number[], range: Range) => sql<Scored>`
  select ${scope.fts}.rowid as docid, ${scope.bm25} as score from ${scope.fts}
  where ${scope.fts} match ${match} and ${within(scope, range)} and +${scope.fts}.rowid in (${docidList(candidates)})`;

const byScore = (a: Scored, b: Scored): number => a.score - b.score;

function keysReader(db: Kysely<Database>, scope: Scope) {
  return async (docids: number[]): Promise<DocKey[]> => {
    if (docids.length === 0) return [];
    const { rows } = await sql<DocKey>`
      select docid, id, created_at as "createdAt" from ${scope.docs} where docid in (${sql.join(docids)})`.execute(db);
    return rows;
  };
}

/** The one FTS5 term a query of one required word (or one-word phrase) and nothing else searches; null otherwise. */
function singleTerm(query: SearchQuery): string | null {
  const [group, ...others] = query.groups;
  const [clause, ...more] = group ?? [];
  const [word, ...rest] = clause?.words ?? [];
  if (others.length > 0 || more.length > 0 || rest.length > 0 || !clause || clause.negated || word === undefined)
    return null;
  const tokens = fts5Tokens(word);
  return tokens.length === 1 ? (tokens[0] ?? null) : null;
}

export function createSqliteSearchIndex(budget: SearchBudget): SearchIndex {
  return {
    async search(db, kind, communityId, query: SearchQuery, window): Promise<SearchHits> {
      const match = toFts5Match(query);
      if (match === null) return { ids: [], total: 0 };
      const scope = scopeOf(kind);
      const range = await rangeOf(db, communityId);
      if (!range) return { ids: [], total: 0 };
      const term = kind === 'post' ? singleTerm(query) : null;
      const impacts = term === null ? null : await impactRanking(db, range.number, term, window.offset + window.limit);
      if (impacts) return { ids: await windowIds(impacts.ranked, window, keysReader(db, scope)), total: impacts.total };
      const total = await countMatches(db, scope, match, range);
      if (window.offset >= total) return { ids: [], total };
      const rows = async (query: RawBuilder<Scored>): Promise<Scored[]> => (await query.execute(db)).rows;

      /** Best match first over every match (but `except`): the window's end and its ties ranked, dates read for them alone. */
      const exactWindow = async (part: SearchWindow, except: readonly number[] = []): Promise<string[]> => {
        const ranked = await rankedThrough(part.offset + part.limit, (limit) =>
          rows(bestMatches(scope, match, limit, except, range)),
        );
        return windowIds(ranked, part, keysReader(db, scope));
      };

      const title = tables[kind].title;
      const likeliest = title !== null && total > budget.rankBudget ? toFts5Candidates(query, title) : null;
      if (likeliest === null) return { ids: await exactWindow(window), total };

      // More matches than the budget: the title candidates first, in exact order, then every other match in exact
      // order (read only by a page beyond the candidates). Pages stay disjoint and complete.
      const candidates = (await rows(candidatesOf(scope, likeliest, budget.titleCandidates, range))).map(
        (row) => row.docid,
      );
      const first = (await rows(scoredCandidates(scope, match, candidates, range))).sort(byScore);
      const end = window.offset + window.limit;
      const ids = await windowIds(first, window, keysReader(db, scope));
      if (end <= first.length) return { ids, total };
      const offset = Math.max(0, window.offset - first.length);
      return {
        ids: [...ids, ...(await exactWindow({ offset, limit: end - first.length - offset }, candidates))],
        total,
      };
    },
  };
}
