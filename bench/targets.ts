// The speed targets of issue 7, checked against one run's figures.
import type { TargetResult, WorkloadResult } from './results.js';

// Throughput targets use the loaded run; latency targets the one-connection run, where a figure is the
// request's own time and not its wait behind the other connections.
const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function evaluateTargets(workloads: readonly WorkloadResult[], hearthPeakRssMb: number): TargetResult[] {
  const find = (name: string) => workloads.find((w) => w.name === name);
  const notRun = (name: string, goal: string): TargetResult => ({ name, goal, measured: 'not run', pass: null });
  const ratioTarget = (name: string, goal: string, minimum: number): TargetResult => {
    const w = find(name);
    if (!w) return notRun(name, goal);
    const ratio = w.hearth.rps / w.baseline.rps;
    return { name, goal, measured: `${fixed(ratio)} (${Math.round(w.hearth.rps)} vs ${Math.round(w.baseline.rps)} req/s)`, pass: ratio >= minimum };
  };
  const first = find('feed-first-page');
  const deep = find('feed-deep-page');
  const rare = find('search-rare');
  const common = find('search-common');
  const deepGoal = 'deep page p99 <= 5 x first page p99 (one connection)';
  const rareGoal = 'search, rare word: p50 <= 5 ms (one connection)';
  const commonGoal = 'search, common word: p99 <= 100 ms (one connection)';
  return [
    ratioTarget('event-by-id', `event by id >= 0.6 x baseline req/s`, 0.6),
    ratioTarget('post-by-id', `post by id >= 0.6 x baseline req/s`, 0.6),
    ratioTarget('feed-first-page', 'first page with total >= 0.3 x baseline req/s', 0.3),
    first && deep
      ? {
          name: 'feed-deep-page',
          goal: deepGoal,
          measured:
            `${fixed(deep.hearthAlone.p99Ms / first.hearthAlone.p99Ms)} x (${fixed(deep.hearthAlone.p99Ms)} vs ${fixed(first.hearthAlone.p99Ms)} ms; ` +
            `loaded ${fixed(deep.hearth.p99Ms / first.hearth.p99Ms)} x)`,
          pass: deep.hearthAlone.p99Ms <= 5 * first.hearthAlone.p99Ms,
        }
      : notRun('feed-deep-page', deepGoal),
    rare
      ? {
          name: 'search-rare',
          goal: rareGoal,
          measured: `${fixed(rare.hearthAlone.p50Ms)} ms (loaded ${fixed(rare.hearth.p50Ms)} ms)`,
          pass: rare.hearthAlone.p50Ms <= 5,
        }
      : notRun('search-rare', rareGoal),
    common
      ? {
          name: 'search-common',
          goal: commonGoal,
          measured: `${fixed(common.hearthAlone.p99Ms)} ms (loaded ${fixed(common.hearth.p99Ms)} ms)`,
          pass: common.hearthAlone.p99Ms <= 100,
        }
      : notRun('search-common', commonGoal),
    { name: 'memory', goal: 'server memory (peak RSS) <= 300 MB', measured: `${fixed(hearthPeakRssMb, 0)} MB`, pass: hearthPeakRssMb <= 300 },
  ];
}
