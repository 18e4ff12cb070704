// The SQL a SQLite search runs on FTS5: a kind's tables, a community's docid range, counts, best matches by bm25 and
// the dates that break ties. Plans (sqlite-search-index.ts, sqlite-search-or.ts) compose them.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { rankedThrough, type DocKey, type Scored } from './ranked-window.js';
import type { SearchKind } from './search-index.js';

export const tables: Record<
  SearchKind,
  { fts: string; docs: string; weights: RawBuilder<unknown>; title: string | null }
> = {
  post: { fts: 'post_search', docs: 'post_search_docs', weights: sql.raw('10.0, 1.0'), title: 'title' },
  comment: { fts: 'comment_search', docs: 'comment_search_docs', weights: sql.raw('1.0'), title: null },
};

/** A community's number and the inclusive bounds of its docids (migration 002). */
export interface Range {
  readonly number: number;
  readonly from: number;
  readonly to: number;
}

/** One kind's index, as SQL fragments. */
export interface Scope {
  readonly fts: RawBuilder<unknown>;
  readonly docs: RawBuilder<unknown>;
  readonly bm25: RawBuilder<unknown>;
}

export function scopeOf(kind: SearchKind): Scope {
  const { fts: ftsName, docs, weights } = tables[kind];
  const fts = sql.table(ftsName);
  return { fts, docs: sql.table(docs), bm25: sql`bm25(${fts}, ${weights})` };
}

export const within = (scope: Scope, range: Range): RawBuilder<unknown> =>
  sql`${scope.fts}.rowid between ${range.from} and ${range.to}`;

/** The community's docid range; none when it has no document yet. */
export async function rangeOf(db: Kysely<Database>, communityId: string): Promise<Range | null> {
  const { rows } = await sql<{ number: number }>`
    select number from search_communities where community_id = ${communityId}`.execute(db);
  const number = rows[0]?.number;
  return number === undefined ? null : { number, from: number * 4294967296, to: number * 4294967296 + 4294967295 };
}

/** The exact number of matches: doclists only, no row of posts, comments or docs is read. */
export async function countMatches(db: Kysely<Database>, scope: Scope, match: string, range: Range): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    select count(*) as total from ${scope.fts} where ${scope.fts} match ${match} and ${within(scope, range)}`.execute(
    db,
  );
  return Number(rows[0]?.total ?? 0);
}

/** The number of rows of the whole table (every community) matching `match`: bm25's count for an IDF. */
export async function tableCount(db: Kysely<Database>, scope: Scope, match: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from ${scope.fts} where ${scope.fts} match ${match}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Every match's docid, unranked: a walk of the doclists, nothing scored. */
export async function matchingDocids(
  db: Kysely<Database>,
  scope: Scope,
  match: string,
  range: Range,
): Promise<number[]> {
  const { rows } = await sql<{ docid: number }>`
    select ${scope.fts}.rowid as docid from ${scope.fts} where ${scope.fts} match ${match} and ${within(scope, range)}`.execute(
    db,
  );
  return rows.map((row) => row.docid);
}

export const docidList = (docids: readonly number[]) => sql`select value from json_each(${JSON.stringify(docids)})`;

/**
 * The `limit` best matches by bm25, without `except`. `ties` 'later' leaves equal scores in any order (no docs join:
 * they are broken later, for the page only); 'here' puts them in search's full order (then newer first, then id
 * descending), each match joined to its dates, for a run of equal scores longer than a ranking can read and sort (a
 * word in every comment of a channel).
 */
export const bestMatches = (
  scope: Scope,
  match: string,
  limit: number,
  except: readonly number[],
  range: Range,
  ties: 'later' | 'here' = 'later',
) => sql<Scored>`
  select ${scope.fts}.rowid as docid, ${scope.bm25} as score from ${scope.fts}
  ${ties === 'here' ? sql`join ${scope.docs} as keyed on keyed.docid = ${scope.fts}.rowid` : sql``}
  where ${scope.fts} match ${match} and ${within(scope, range)}
  ${except.length > 0 ? sql`and +${scope.fts}.rowid not in (${docidList(except)})` : sql``}
  order by score${ties === 'here' ? sql`, keyed.created_at desc, keyed.id desc` : sql``} limit ${limit}`;

/**
 * FTS5's `n` best matches of `match` by bm25 (but `except`), as rankedThrough gives them: every match tied with the
 * `n`th included, or a run of ties longer than the first read cut in search's full order by the statement.
 */
export const bestRanked = (
  db: Kysely<Database>,
  scope: Scope,
  range: Range,
  match: string,
  n: number,
  except: readonly number[] = [],
): Promise<Scored[]> =>
  rankedThrough(
    n,
    async (limit) => (await bestMatches(scope, match, limit, except, range).execute(db)).rows,
    async (limit) => (await bestMatches(scope, match, limit, except, range, 'here').execute(db)).rows,
  );

/**
 * Reads the dates and ids that break ties between equal scores, for the docids asked only: one JSON parameter, as
 * equal scores can be tens of thousands (a word in every comment), past SQLite's bound on parameters.
 */
export function keysReader(db: Kysely<Database>, scope: Scope) {
  return async (docids: number[]): Promise<DocKey[]> => {
    if (docids.length === 0) return [];
    const { rows } = await sql<DocKey>`
      select docid, id, created_at as "createdAt" from ${scope.docs} where docid in (${docidList(docids)})`.execute(db);
    return rows;
  };
}

/** A post's texts as post_search indexes them (migration 002: title and body_plaintext, cut to their bounds). */
export interface IndexedText {
  readonly docid: number;
  readonly title: string;
  readonly body: string;
}

/** The texts post_search indexed for these posts (migration 002's columns and bounds). */
export async function indexedTexts(db: Kysely<Database>, docids: readonly number[]): Promise<IndexedText[]> {
  const { rows } = await sql<IndexedText>`
    select d.docid, substr(coalesce(p.title, ''), 1, 10000) as title, substr(coalesce(p.body_plaintext, ''), 1, 100000) as body
    from post_search_docs d join posts p on p.community_id = d.community_id and p.id = d.id
    where d.docid in (${docidList(docids)})`.execute(db);
  return rows;
}
