// How much ranking one search may do: exact up to a number of matches, title candidates beyond it (both stores), and
// which words SQLite keeps impact postings for.

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

/**
 * SQLite: a word held by at least this many of a community's posts gets impact postings (migration 022) when its
 * community is imported or built: counted and ranked from them without a walk of its matches. Below it, today's
 * exact ranking costs at most about 5 ms of CPU (1 µs of bm25 per match, measured at 50k posts).
 */
export const IMPACT_MIN_DOCS = 5_000;

/**
 * How many posts of each (word, weighted hits) group the build keeps, shortest first (and any as short as the last):
 * a top k needs at most k + ties of any group, so pages up to about this deep are answered from the postings.
 */
export const IMPACT_DEPTH = 100;

/** Which words get impact postings, and how deep: the defaults above, smaller in tests. */
export interface ImpactShape {
  readonly minDocs: number;
  readonly depth: number;
}

export const defaultImpactShape: ImpactShape = { minDocs: IMPACT_MIN_DOCS, depth: IMPACT_DEPTH };
