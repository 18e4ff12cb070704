// The import's phases in order and the share of its time each takes, from which progress estimates the time left
// over the whole import, not over its reading alone (measured with bench/import-phases.ts; figures in BENCHMARKS.md).
export const importPhases = ['reading', 'checking', 'indexing', 'rendering', 'searching', 'committing'] as const;

/**
 * `reading`: lines read, parsed, derived and their rows written, chunk by chunk; `checking`: links and e-mails
 * against the file and the store; `indexing`: the indexes left out while writing, built again, and (PostgreSQL)
 * the planner's statistics; `rendering`: counters and fragments; `searching`: the search index loaded;
 * `committing`: the commit, then (PostgreSQL) the vacuum of what was written.
 */
export type ImportPhase = (typeof importPhases)[number];

/** Phases in order, each with its share of the whole time (the shares add up to 1). */
export type PhaseShares = readonly (readonly [phase: ImportPhase, share: number])[];

/**
 * Shares measured on a 100,990-record file (the demo corpus at scale 32,000) into an empty community, the common
 * case of a large import (bench/import-phases.ts, figures in BENCHMARKS.md). Into a populated community the reading
 * took 72 % (SQLite) and 76 % (PostgreSQL), the rest mostly the search load, ANALYZE and the commit.
 */
const measured: Record<'sqlite' | 'postgres', Record<ImportPhase, number>> = {
  sqlite: { reading: 0.78, checking: 0.005, indexing: 0.035, rendering: 0.08, searching: 0.09, committing: 0.01 },
  postgres: { reading: 0.59, checking: 0.02, indexing: 0.165, rendering: 0.065, searching: 0.13, committing: 0.03 },
};

/** A dry run reads every line and checks the links, writing nothing; its check is a few queries. */
const dryRun: PhaseShares = [
  ['reading', 0.97],
  ['checking', 0.03],
];

export function importShares(store: 'sqlite' | 'postgres', options: { dryRun?: boolean } = {}): PhaseShares {
  if (options.dryRun) return dryRun;
  const shares = measured[store];
  return importPhases.map((phase) => [phase, shares[phase]] as const);
}
