// A one-word post search on PostgreSQL read from its impact postings (migration 032): the exact count, and a page in
// exact order read from the word's kept ranks, without ranking every match.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { SearchWindow } from './search-index.js';
import type { SearchQuery } from './search-query.js';

/** The one word of a query that is a single plain word (no phrase, exclusion or `OR`); null otherwise. */
export function singleWord(query: SearchQuery): string | null {
  const [group, ...others] = query.groups;
  if (group === undefined || others.length > 0 || group.length !== 1) return null;
  const clause = group[0];
  if (clause === undefined || clause.negated || clause.words.length !== 1) return null;
  return clause.words[0] ?? null;
}

export interface RanksAnswer {
  /** The exact number of matches. */
  readonly total: number;
  /** The window's ids in search's order; null when the kept ranks cannot prove it (read every match instead). */
  readonly ids: string[] | null;
}

/**
 * The count and window of a one-word query whose lexeme has kept ranks, or null when it has none. `withQuery` is the
 * search's own `query` CTE (matching and ranking tsqueries): the lexeme is used only when both equal it as a tsquery,
 * so the kept scores are those the ranking computes (ts_rank of the same document and query) and the count is of the
 * same matches. Every post whose score is at least the lexeme's floor is kept, and every other scores below it: the
 * kept rows are the first of the exact order, in that order (score, then newer first, then id, all descending),
 * so a window is proven when it is read whole from them, or when every match is kept (floor 0).
 */
export async function ranksWindow(
  db: Kysely<Database>,
  withQuery: RawBuilder<unknown>,
  communityId: string,
  word: string,
  window: SearchWindow,
): Promise<RanksAnswer | null> {
  const { rows } = await sql<{ docs: number; floor: number; id: string | null }>`${withQuery},
    term as (
      select l.lexeme, l.docs, l.floor from post_search_lexemes l
      where l.community_id = ${communityId}
        and l.lexeme = any(tsvector_to_array(to_tsvector('hearth_search', ${word})))
        and hearth_lexeme_query(l.lexeme) = (select matching from query)
        and hearth_lexeme_query(l.lexeme) = (select ranking from query)
    )
    select term.docs, term.floor, page.id from term
    left join lateral (
      select r.id from post_search_ranks r
      where r.community_id = ${communityId} and r.lexeme = term.lexeme
      order by r.score desc, r.created_at desc, r.id desc
      limit ${window.limit} offset ${window.offset}
    ) page on true`.execute(db);
  const first = rows[0];
  if (first === undefined) return null;
  const total = Number(first.docs);
  const ids = rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  if (window.offset >= total) return { total, ids: [] };
  const proven = ids.length === window.limit || Number(first.floor) === 0;
  return { total, ids: proven ? ids : null };
}
