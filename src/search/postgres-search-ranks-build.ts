// Builds a community's PostgreSQL impact postings (migration 032) in one pass over its documents: after a bulk import
// into an empty community (migration 032 builds them for a store upgraded to it). Its trigger keeps them afterwards.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { ImpactShape } from './search-budget.js';

/**
 * A lexeme held by at least this many of a community's posts gets its count and best ranks kept. Below it, ranking
 * every match is exact and cheap (capped at the rank budget); migration 032 builds with the same figures.
 */
export const RANKS_MIN_DOCS = 1_000;

/** How many of a lexeme's best posts the build keeps (and any tied with the last): pages this deep read only them. */
export const RANKS_DEPTH = 100;

export const defaultRanksShape: ImpactShape = { minDocs: RANKS_MIN_DOCS, depth: RANKS_DEPTH };

/** Replaces the community's counts and kept ranks, inside the caller's transaction. */
export async function buildPostgresSearchRanks(
  db: Kysely<Database>,
  communityId: string,
  shape: ImpactShape = defaultRanksShape,
): Promise<void> {
  await sql`select hearth_post_search_ranks_build(${communityId}, ${shape.minDocs}, ${shape.depth})`.execute(db);
}
