// A loaded run measured in rounds that alternate with the baseline's, so that both see the machine alike; the rounds combined.
import type { LoadFigures } from './results.js';

/** Warm-up of every round after the first: new connections, already warm code and caches. */
export const ROUND_WARMUP_SECONDS = 1;

/**
 * One workload's rounds as one run: responses and CPU summed (throughput over the rounds' measured seconds, CPU
 * per response over all responses), the median of the rounds' p50s, the highest p95, p99 and peak RSS.
 */
export function combineRounds(rounds: readonly LoadFigures[]): LoadFigures {
  if (rounds.length === 0) throw new Error('No rounds to combine');
  const sum = (value: (round: LoadFigures) => number) => rounds.reduce((total, round) => total + value(round), 0);
  const requests = sum((round) => round.requests);
  const seconds = sum((round) => (round.rps > 0 ? round.requests / round.rps : 0));
  const cpuSeconds = sum((round) => (round.requests > 0 ? (round.cpuPerRequestUs * round.requests) / 1e6 : 0));
  const p50s = rounds.map((round) => round.p50Ms).sort((a, b) => a - b);
  const middle = p50s.length / 2;
  return {
    rps: seconds > 0 ? requests / seconds : 0,
    requests,
    non2xx: sum((round) => round.non2xx),
    shed: sum((round) => round.shed ?? 0),
    errors: sum((round) => round.errors),
    p50Ms:
      p50s.length % 2 === 1 ? (p50s[Math.floor(middle)] ?? 0) : ((p50s[middle - 1] ?? 0) + (p50s[middle] ?? 0)) / 2,
    ...(rounds.every((round) => round.p95Ms !== undefined)
      ? { p95Ms: Math.max(...rounds.map((round) => round.p95Ms ?? 0)) }
      : {}),
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    cpuPerRequestUs: requests > 0 ? (cpuSeconds / requests) * 1e6 : Number.NaN,
    cpuCores: seconds > 0 ? cpuSeconds / seconds : 0,
    peakRssMb: Math.max(...rounds.map((round) => round.peakRssMb)),
  };
}
