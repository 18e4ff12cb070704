// The speed targets (issue 11 for the read path, issue 40's search and cache misses, issue 41's console), checked against one run's figures.
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
  /** Issue 41: a console page, p95 over the one-connection run (the loaded run's beside it). */
  const consoleGoal = `${store === 'postgres' ? 'PostgreSQL: ' : ''}console pages: p95 <= 200 ms (one connection)`;
  const consolePages = find('console-pages');
  const consoleTarget: TargetResult =
    consolePages?.hearthAlone.p95Ms === undefined
      ? notRun('console-pages', consoleGoal)
      : {
          name: 'console-pages',
          goal: consoleGoal,
          measured: `${fixed(consolePages.hearthAlone.p95Ms)} ms (loaded ${fixed(consolePages.hearth.p95Ms ?? Number.NaN)} ms)`,
          pass: consolePages.hearthAlone.p95Ms <= 200,
        };
  /** A CPU target in µs per request (not a ratio): issue 40's search CPU. */
  const cpuMicros = (name: string, goal: string, maximum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    return {
      name,
      goal,
      measured: `${Math.round(w.hearth.cpuPerRequestUs)} µs (${fixed(w.hearth.cpuPerRequestUs / w.baseline.cpuPerRequestUs, 0)} x baseline)`,
      pass: w.hearth.cpuPerRequestUs <= maximum,
    };
  };
  /** A throughput target in requests per second of the loaded run. */
  const rpsTarget = (name: string, goal: string, minimum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    return { name, goal, measured: `${Math.round(w.hearth.rps)} req/s`, pass: w.hearth.rps >= minimum };
  };
  // Issue 40: search at search-engine speed (one connection for latency; CPU and throughput loaded).
  const searchTargets = [
    aloneTarget('search-rare', 'search, rare word: p50 <= 0.5 ms (one connection)', 'p50Ms', 0.5),
    aloneTarget('search-common', 'search, common word: p99 <= 10 ms (one connection)', 'p99Ms', 10),
    cpuMicros('search-common', 'search, common word: CPU <= 3,000 µs per query', 3000),
    aloneTarget('search-two-word', 'search, two words: p99 <= 15 ms (one connection)', 'p99Ms', 15),
    aloneTarget('search-phrase', 'search, phrase: p99 <= 15 ms (one connection)', 'p99Ms', 15),
    aloneTarget('search-or', 'search, OR: p99 <= 15 ms (one connection)', 'p99Ms', 15),
    aloneTarget('search-zipf', 'search-zipf: p99 <= 10 ms (one connection)', 'p99Ms', 10),
    rpsTarget('search-common', 'search, common word, loaded: >= 500 req/s', 500),
    ratioTarget('mixed', 'mixed >= 0.1 x baseline req/s', 0.1),
  ];
  // Issue 40: reads that miss the answer cache at store speed.
  const missTargets =
    store === 'postgres'
      ? [
          cpuTarget('post-by-id-spread', 'PostgreSQL: post by id, spread: CPU <= 6 x baseline', 6),
          cpuTarget('event-by-id-spread', 'PostgreSQL: event by id, spread: CPU <= 6 x baseline', 6),
          ratioTarget('post-by-id-spread', 'PostgreSQL: post by id, spread >= 0.3 x baseline req/s', 0.3),
          ratioTarget('event-by-id-spread', 'PostgreSQL: event by id, spread >= 0.3 x baseline req/s', 0.3),
        ]
      : [
          cpuTarget('post-by-id-spread', 'post by id, spread: CPU <= 3 x baseline', 3),
          cpuTarget('event-by-id-spread', 'event by id, spread: CPU <= 3 x baseline', 3),
          cpuTarget('by-id-zipf', 'by-id-zipf: CPU <= 2 x baseline', 2),
        ];
  if (store === 'postgres') {
    return [
      ratioTarget('event-by-id', 'PostgreSQL: event by id >= 0.3 x baseline req/s', 0.3),
      ratioTarget('post-by-id', 'PostgreSQL: post by id >= 0.3 x baseline req/s', 0.3),
      ratioTarget('feed-first-page', 'PostgreSQL: first page with total >= 0.2 x baseline req/s', 0.2),
      aloneTarget('search-common', 'PostgreSQL: search, common word: p99 <= 25 ms (one connection)', 'p99Ms', 25),
      aloneTarget('search-zipf', 'PostgreSQL: search-zipf: p99 <= 25 ms (one connection)', 'p99Ms', 25),
      ...missTargets,
      consoleTarget,
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
    ...missTargets,
    consoleTarget,
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

/** Issue 38's Slack events targets (workload slack-events): applications per second on SQLite, acknowledgement p99. */
export const SLACK_EVENTS_TARGETS = { sqliteAppliedPerSecond: 1000, ackP99Ms: 50 } as const;

function slackEventsTargets(run: ImportResult | undefined, store: 'sqlite' | 'postgres'): TargetResult[] {
  const label = storeName(store);
  const applyGoal = `SQLite: Slack events applied by one process >= ${SLACK_EVENTS_TARGETS.sqliteAppliedPerSecond.toLocaleString('en-US')} events/s`;
  const ackGoal = `${label}: Slack acknowledgement p99 <= ${SLACK_EVENTS_TARGETS.ackP99Ms} ms under 200 events/s`;
  if (!run)
    return [
      ...(store === 'sqlite' ? [{ name: 'slack-events-apply', goal: applyGoal, measured: 'not run', pass: null }] : []),
      { name: 'slack-events-ack', goal: ackGoal, measured: 'not run', pass: null },
    ];
  const load = run.loadAverage === undefined ? '' : ` (load ${run.loadAverage})`;
  return [
    ...(store === 'sqlite'
      ? [
          {
            name: 'slack-events-apply',
            goal: applyGoal,
            measured: `${Math.round(run.recordsPerSecond).toLocaleString('en-US')} events/s${load}`,
            pass: run.recordsPerSecond >= SLACK_EVENTS_TARGETS.sqliteAppliedPerSecond,
          },
        ]
      : []),
    {
      name: 'slack-events-ack',
      goal: ackGoal,
      measured: `${run.ackP99Ms} ms (bare ${run.ackBareP99Ms} ms)${load}`,
      pass: run.ackP99Ms !== undefined && run.ackP99Ms <= SLACK_EVENTS_TARGETS.ackP99Ms,
    },
  ];
}

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
  const peak = Math.max(0, ...imports.filter((i) => i.name !== 'slack-events').map((i) => i.peakRssMb));
  const maxRss = IMPORT_TARGETS.peakRssMb;
  return [
    rate('import-empty', 'import into an empty community'),
    rate('import-populated', 'import into a populated community'),
    rate('slack-import', 'Slack export import', 'messages/s'),
    ...slackEventsTargets(find('slack-events'), store),
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
