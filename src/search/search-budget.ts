// How much ranking one search may do: exact up to a number of matches, title candidates beyond it (both stores).

/**
 * A query with at most this many matches is ranked exactly, every match scored. Each match scored costs
 * CPU on SQLite (bm25) and more on PostgreSQL (ts_rank reads each document), so this keeps exact
 * ranking within about 15 ms of CPU on SQLite (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export const RANK_BUDGET = 20_000;

/**
 * Beyond the budget, the best this many matches with a required term in the title (ranked by the
 * title-restricted query) are ranked exactly and shown first; every other match follows, in exact
 * order. A title hit weighs ten body hits, so the best matches of a frequent word are title hits.
 */
export const TITLE_CANDIDATES = 2_000;

/** The budget an index is built with: the defaults above, smaller in tests that need large answers from few posts. */
export interface SearchBudget {
  readonly rankBudget: number;
  readonly titleCandidates: number;
}

export const defaultBudget: SearchBudget = { rankBudget: RANK_BUDGET, titleCandidates: TITLE_CANDIDATES };
