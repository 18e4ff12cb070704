// Exact top k of a large PostgreSQL post search without ranking every title hit: title hits walked shortest first, stopped by a proven bound.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { SearchWindow } from './search-index.js';

/**
 * The parts of one search's SQL this needs (postgres-search-index.ts makes them): the query CTE, the match
 * condition, the title-hit condition, the rank expression and the table, each over the alias `s`.
 */
export interface TopkPlan {
  readonly withQuery: RawBuilder<unknown>;
  readonly table: RawBuilder<unknown>;
  readonly matches: RawBuilder<unknown>;
  /** A ranking word among the title's lexemes (weight A): the condition of the title index (migration 005). */
  readonly titled: RawBuilder<unknown>;
  readonly rank: RawBuilder<unknown>;
}

/**
 * Bounds of the exact rank, `ts_rank('{0, 0, 0.1, 1}', document, ranking, 1)` with `ranking` a disjunction of words.
 * Per word, ts_rank (calc_rank_or) sums the positions' weights over (j + 1)², the heaviest counted whole, and
 * divides by π²/6: at most 1 with weights at most 1. The disjunction averages its words, and normalization 1
 * divides by log2(1 + positions). So a document's rank is at most 1 / log2(1 + its distinct lexemes)
 * (`length(document)`, never more than its positions), and at most 0.1 with no ranking word in its title
 * (weight B is 0.1). A margin covers float4 rounding.
 */
const MARGIN = 1.0001;
const NON_TITLE_MAX = 0.1 * MARGIN;
const titleMax = (lexemes: number): number => MARGIN / Math.log2(1 + lexemes);

/** Title hits read at first per answer: this many times the window's end, at least the floor. */
const SCAN_FACTOR = 4;
const SCAN_FLOOR = 200;
/** One more try, this many times as many, when the first read proves nothing; then the budgeted answer. */
const SCAN_GROWTH = 8;
const ATTEMPTS = 2;

interface Row {
  id: string;
  n: number;
  rank: number;
  scanned: number;
  longest: number | null;
  /** Whether the ranking query is a disjunction of words (the bounds above hold only for one). */
  disjunction: boolean;
}

/**
 * The window of the exact order (rank, then newer, then id; every match ranked) when it can be proven from the
 * shortest `scan` title hits, or null. Proven when the window's last rank is above what any other document could
 * score: a match without a title hit (0.1), or a title hit not read (all are longer than the longest read).
 */
async function provenWindow(
  db: Kysely<Database>,
  plan: TopkPlan,
  window: SearchWindow,
  scan: number,
): Promise<string[] | 'more' | null> {
  const end = window.offset + window.limit;
  // Ranked after the limit: only the documents read are ranked, not every title hit.
  const { rows } = await sql<Row>`${plan.withQuery}, scan as materialized (
      select s.id, s.created_at, s.document, length(s.document) as lexemes from ${plan.table} s
      where ${plan.matches} and ${plan.titled}
      order by length(s.document) limit ${scan}),
    ranked as (select s.id, s.created_at, ${plan.rank} as rank from scan s),
    ordered as (select id, rank, row_number() over (order by rank desc, created_at desc, id desc) as n from ranked)
    select o.id, o.n::int as n, o.rank::float8 as rank,
      (select count(*) from scan)::int as scanned, (select max(lexemes) from scan)::int as longest,
      (select ranking::text !~ '&|<' from query) as disjunction
    from ordered o where o.n <= ${end} order by o.n`.execute(db);
  const last = rows[rows.length - 1];
  if (!last?.disjunction || rows.length < end) return null;
  if (!(last.rank > NON_TITLE_MAX)) return null;
  const allRead = last.scanned < scan;
  if (!allRead && !(last.longest !== null && last.rank > titleMax(last.longest))) return 'more';
  return rows.slice(window.offset).map((row) => row.id);
}

/**
 * The exact window of a search with more matches than the rank budget, or null when it cannot be proven cheaply
 * (the caller answers on the budget then). The first `titleCandidates` places of the budgeted answer are the
 * title hits in exact order, so a proven window is the same as the budgeted one: pages agree whichever way each
 * was answered.
 */
export async function exactTopWindow(
  db: Kysely<Database>,
  plan: TopkPlan,
  window: SearchWindow,
  titleCandidates: number,
): Promise<string[] | null> {
  const end = window.offset + window.limit;
  if (end > titleCandidates) return null;
  let scan = Math.max(SCAN_FLOOR, end * SCAN_FACTOR);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++, scan *= SCAN_GROWTH) {
    const found = await provenWindow(db, plan, window, scan);
    if (found !== 'more') return found;
  }
  return null;
}
