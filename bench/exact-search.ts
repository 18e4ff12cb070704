// The exact ranking search used before the rank budget (every match scored, ties by date and id in SQL): the reference for quality and tests.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/database.js';
import type { StoreDialect } from '../src/db/dialect.js';
import type { SearchKind, SearchWindow } from '../src/search/search-index.js';
import { toTsquery } from '../src/search/postgres-search-query.js';
import type { SearchQuery } from '../src/search/search-query.js';
import { toFts5Match } from '../src/search/sqlite-search-query.js';

const sqliteTables = {
  post: { fts: 'post_search', docs: 'post_search_docs', weights: sql.raw('10.0, 1.0') },
  comment: { fts: 'comment_search', docs: 'comment_search_docs', weights: sql.raw('1.0') },
} as const;

/** SQLite as of commit 3cb82c0: bm25 over every match, each joined to its docs row, sorted. */
async function sqliteExact(
  db: Kysely<Database>,
  kind: SearchKind,
  communityId: string,
  query: SearchQuery,
  window: SearchWindow,
): Promise<string[]> {
  const match = toFts5Match(query);
  if (match === null) return [];
  const { fts: ftsName, docs: docsName, weights } = sqliteTables[kind];
  const fts = sql.table(ftsName);
  const docs = sql.table(docsName);
  const page = await sql<{ id: string }>`
    select d.id as id from ${fts} cross join ${docs} d on d.docid = ${fts}.rowid
    where ${fts} match ${match} and ${fts}.rowid between
      (select number * 4294967296 from search_communities where community_id = ${communityId}) and
      (select number * 4294967296 + 4294967295 from search_communities where community_id = ${communityId})
      and d.community_id = ${communityId}
    order by bm25(${fts}, ${weights}), d.created_at desc, d.id desc
    limit ${window.limit} offset ${window.offset}`.execute(db);
  return page.rows.map((row) => row.id);
}

/** PostgreSQL as of commit 3cb82c0: ts_rank over every match. */
async function postgresExact(
  db: Kysely<Database>,
  kind: SearchKind,
  communityId: string,
  query: SearchQuery,
  window: SearchWindow,
): Promise<string[]> {
  const matching: string[] = [];
  const ranking: string[] = [];
  for (const group of query.groups) {
    const tsquery = toTsquery({ groups: [group] });
    if (!tsquery) continue;
    matching.push(tsquery.text);
    ranking.push(tsquery.words.join(' | '));
  }
  if (matching.length === 0) return [];
  const table = sql.table(kind === 'post' ? 'post_search' : 'comment_search');
  const page = await sql<{ id: string }>`with query as (
      select string_agg('(' || q.matching::text || ')', ' | ')::tsquery as matching,
             (string_agg('(' || q.ranking::text || ')', ' | ') filter (where numnode(q.ranking) > 0))::tsquery as ranking
      from unnest(${matching}::text[], ${ranking}::text[]) as g(matching, ranking),
           lateral (select to_tsquery('hearth_search', g.matching) as matching, to_tsquery('hearth_search', g.ranking) as ranking) as q
      where querytree(q.matching) not in ('', 'T')
    )
    select s.id from ${table} s where s.community_id = ${communityId} and s.document @@ (select matching from query)
    order by ts_rank('{0, 0, 0.1, 1}'::real[], s.document, (select ranking from query), 1) desc, s.created_at desc, s.id desc
    limit ${window.limit} offset ${window.offset}`.execute(db);
  return page.rows.map((row) => row.id);
}

/** The ids of `window` in the exact order: best match first over every match, then newer first, then id. */
export function exactSearch(dialect: StoreDialect) {
  return dialect.name === 'postgres' ? postgresExact : sqliteExact;
}
