// The full-text index behind one small interface, one implementation per store (migrations 002 and 004 build both);
// search-index-factory.ts picks the store's.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { SearchQuery } from './search-query.js';

export type SearchKind = 'post' | 'comment';

export interface SearchWindow {
  readonly limit: number;
  readonly offset: number;
}

export interface SearchHits {
  /**
   * Ids of this window's matches: best match first, then newer first, then id (descending). Beyond the
   * rank budget (search-budget.ts), post matches come in two runs, each in that order: the best title
   * candidates, then the others (SQLite ranks `a OR b` exactly at any depth). Pages never repeat or skip a match
   * either way.
   */
  readonly ids: string[];
  /** The exact number of matches in the community. */
  readonly total: number;
}

/**
 * Both stores see the same words (PostgreSQL blanks ASCII punctuation as FTS5's unicode61 splits on
 * it), fold case and accents, stem with the original Porter algorithm and keep every word (no stop
 * words), so what matches, and the totals, are the same. What differs:
 * - Rank scores: bm25 (with IDF over the whole FTS5 table) against ts_rank (no corpus statistics).
 *   Clear cases order alike (title above body, more hits above fewer, shorter above longer, ties by
 *   date then id); documents whose scores are close may come in another order.
 * - Stemming at the edges: FTS5 leaves words under 3 or over 64 characters unstemmed, PostgreSQL
 *   does not (`us` is `u` there, so `useful`, stemmed `us`, misses it), and letters beyond
 *   diacritics fold apart (`ß` is `ss` for PostgreSQL's unaccent only; `x²` is one word for FTS5).
 */
export interface SearchIndex {
  /** Matches of a non-empty query among one community's posts (title and body) or comments (body). */
  search(
    db: Kysely<Database>,
    kind: SearchKind,
    communityId: string,
    query: SearchQuery,
    window: SearchWindow,
  ): Promise<SearchHits>;
}
