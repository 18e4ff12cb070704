// The speed targets (issue 11 for the read path, issue 12's search targets), checked against one run's figures.
import { storeName, type ImportResult, type TargetResult, type WorkloadResult } from './results.js';

// Throughput targets use the loaded run; latency targets the one-connection run, where a figure is the
// request's own time and not its wait behind the other connections. CPU targets are multiples of the bare
// node:http server's CPU per request for the same body size, measured back to back in the same run.
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function evaluateTargets(
  workloads: readonly WorkloadResult[],
  hearthPeakRssMb: number,
  store: 'sqlite' | 'postgres' = 'sqlite',
): TargetResult[] {
  const find = (name: string) => workloads.find((w) => w.name === name);
  const notRun = (name: string, goal: string): TargetResult => ({ name, goal, measured: 'not run', pass: null });
  const ratioTarget = (name: string, goal: string, minimum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    const ratio = w.hearth.rps / w.baseline.rps;
    return {
      name,
      goal,
      measured: `${fixed(ratio)} (${Math.round(w.hearth.rps)} vs ${Math.round(w.baseline.rps)} req/s)`,
      pass: ratio >= minimum,
    };
  };
  const cpuTarget = (name: string, goal: string, maximum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    const times = w.hearth.cpuPerRequestUs / w.baseline.cpuPerRequestUs;
    return {
      name,
      goal,
      measured: `${fixed(times)} x (${Math.round(w.hearth.cpuPerRequestUs)} vs ${Math.round(w.baseline.cpuPerRequestUs)} µs)`,
      pass: times <= maximum,
    };
  };
  const first = find('feed-first-page');
  const deep = find('feed-deep-page');
  const deepGoal = 'deep page p99 <= 3 x first page p99 (one connection)';
  /** A latency target on the one-connection run (issue 12's search targets). */
  const aloneTarget = (name: string, goal: string, figure: 'p50Ms' | 'p99Ms', maximum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    return {
      name,
      goal,
      measured: `${fixed(w.hearthAlone[figure])} ms (loaded ${fixed(w.hearth[figure])} ms)`,
      pass: w.hearthAlone[figure] <= maximum,
    };
  };
  const searchTargets = [
    aloneTarget('search-rare', 'search, rare word: p50 <= 2 ms (one connection)', 'p50Ms', 2),
    aloneTarget('search-common', 'search, common word: p99 <= 100 ms (one connection)', 'p99Ms', 100),
    aloneTarget('search-two-word', 'search, two words: p99 <= 100 ms (one connection)', 'p99Ms', 100),
    aloneTarget('search-phrase', 'search, phrase: p99 <= 100 ms (one connection)', 'p99Ms', 100),
  ];
  if (store === 'postgres') {
    return [
      ratioTarget('event-by-id', 'PostgreSQL: event by id >= 0.3 x baseline req/s', 0.3),
      ratioTarget('post-by-id', 'PostgreSQL: post by id >= 0.3 x baseline req/s', 0.3),
      ratioTarget('feed-first-page', 'PostgreSQL: first page with total >= 0.2 x baseline req/s', 0.2),
      {
        name: 'memory',
        goal: 'server memory (peak RSS) <= 300 MB',
        measured: `${fixed(hearthPeakRssMb, 0)} MB`,
        pass: hearthPeakRssMb <= 300,
      },
    ];
  }
  return [
    cpuTarget('event-by-id', 'event by id: CPU <= 2.0 x baseline', 2),
    ratioTarget('event-by-id', 'event by id >= 0.6 x baseline req/s', 0.6),
    cpuTarget('post-by-id', 'post by id: CPU <= 2.0 x baseline', 2),
    ratioTarget('post-by-id', 'post by id >= 0.6 x baseline req/s', 0.6),
    cpuTarget('feed-first-page', 'first page with total: CPU <= 3.0 x baseline', 3),
    ratioTarget('feed-first-page', 'first page with total >= 0.4 x baseline req/s', 0.4),
    first && deep
      ? {
          name: 'feed-deep-page',
          goal: deepGoal,
          measured:
            `${fixed(deep.hearthAlone.p99Ms / first.hearthAlone.p99Ms)} x (${fixed(deep.hearthAlone.p99Ms)} vs ${fixed(first.hearthAlone.p99Ms)} ms; ` +
            `loaded ${fixed(deep.hearth.p99Ms / first.hearth.p99Ms)} x)`,
          pass: deep.hearthAlone.p99Ms <= 3 * first.hearthAlone.p99Ms,
        }
      : notRun('feed-deep-page', deepGoal),
    cpuTarget('events-filtered', 'events filtered (every combination): CPU <= 6 x baseline', 6),
    cpuTarget('post-by-id-304', '304 answers: CPU <= 1.5 x baseline', 1.5),
    ...searchTargets,
    {
      name: 'memory',
      goal: 'server memory (peak RSS) <= 300 MB',
      measured: `${fixed(hearthPeakRssMb, 0)} MB`,
      pass: hearthPeakRssMb <= 300,
    },
  ];
}

/** Issue 12's import targets: records/s per workload and store, and the importing process's peak RSS. */
export const IMPORT_TARGETS = {
  recordsPerSecond: {
    'import-empty': { sqlite: 20_000, postgres: 10_000 },
    'import-populated': { sqlite: 8_000, postgres: 8_000 },
    // Issue 37: Slack messages per second of a generated export (bench/slack-export.ts).
    'slack-import': { sqlite: 10_000, postgres: 5_000 },
  },
  peakRssMb: 500,
} as const;

/** The records/s an import workload must reach on `store`, or null for a workload without a target. */
export function importRateTarget(name: string, store: 'sqlite' | 'postgres'): number | null {
  const rates: Readonly<Record<string, { readonly sqlite: number; readonly postgres: number }>> =
    IMPORT_TARGETS.recordsPerSecond;
  return rates[name]?.[store] ?? null;
}

/** Issue 12's import targets: records/s into an empty and into a populated community, and the import's peak RSS. */
export function evaluateImportTargets(imports: readonly ImportResult[], store: 'sqlite' | 'postgres'): TargetResult[] {
  const find = (name: string) => imports.find((i) => i.name === name);
  const label = storeName(store);
  const rate = (name: keyof typeof IMPORT_TARGETS.recordsPerSecond, what: string, unit = 'records/s'): TargetResult => {
    const minimum = IMPORT_TARGETS.recordsPerSecond[name][store];
    const goal = `${label}: ${what} >= ${minimum.toLocaleString('en-US')} ${unit}`;
    const run = find(name);
    if (!run) return { name, goal, measured: 'not run', pass: null };
    return {
      name,
      goal,
      measured: `${Math.round(run.recordsPerSecond).toLocaleString('en-US')} ${unit}`,
      pass: run.recordsPerSecond >= minimum,
    };
  };
  const peak = Math.max(0, ...imports.map((i) => i.peakRssMb));
  const maxRss = IMPORT_TARGETS.peakRssMb;
  return [
    rate('import-empty', 'import into an empty community'),
    rate('import-populated', 'import into a populated community'),
    rate('slack-import', 'Slack export import', 'messages/s'),
    imports.length === 0
      ? { name: 'import-memory', goal: `import peak RSS <= ${maxRss} MB`, measured: 'not run', pass: null }
      : {
          name: 'import-memory',
          goal: `${label}: import peak RSS <= ${maxRss} MB`,
          measured: `${Math.round(peak)} MB`,
          pass: peak <= maxRss,
        },
  ];
}
