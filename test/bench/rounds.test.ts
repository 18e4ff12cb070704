// The bench's loaded rounds combined into one run: sums, the median round's p50, the highest p99 and peak.
import { describe, expect, it } from 'vitest';
import { combineRounds } from '../../bench/rounds.js';
import type { LoadFigures } from '../../bench/results.js';

const round = (requests: number, seconds: number, cpuUs: number, p50Ms: number, p99Ms: number, peakRssMb: number) =>
  ({
    rps: requests / seconds,
    requests,
    non2xx: 0,
    shed: 0,
    errors: 0,
    p50Ms,
    p99Ms,
    cpuPerRequestUs: cpuUs,
    cpuCores: (cpuUs * requests) / 1e6 / seconds,
    peakRssMb,
  }) satisfies LoadFigures;

/** Every figure to 10 significant digits: the sums are of floating-point rates and times. */
const rounded = (figures: LoadFigures) =>
  Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, Number(value.toPrecision(10))]));

describe('combineRounds', () => {
  it('sums responses and CPU over the rounds', () => {
    // 10,000 responses at 40 µs in 5 s, 5,000 at 100 µs in 5 s, 20,000 at 40 µs in 4 s.
    expect(
      rounded(
        combineRounds([
          round(10_000, 5, 40, 0.5, 2, 150),
          round(5_000, 5, 100, 0.9, 7, 170),
          round(20_000, 4, 40, 0.3, 1.5, 160),
        ]),
      ),
    ).toEqual(
      rounded({
        rps: 35_000 / 14,
        requests: 35_000,
        non2xx: 0,
        shed: 0,
        errors: 0,
        p50Ms: 0.5,
        p99Ms: 7,
        cpuPerRequestUs: ((0.4 + 0.5 + 0.8) / 35_000) * 1e6,
        cpuCores: 1.7 / 14,
        peakRssMb: 170,
      }),
    );
  });

  it('takes the middle of an even number of p50s, and counts every failure and every 503 past the deadline', () => {
    const failed = { ...round(1_000, 2, 50, 0.4, 3, 100), non2xx: 2, errors: 1, shed: 3 };
    const combined = combineRounds([failed, { ...round(1_000, 2, 50, 0.6, 2, 90), shed: 1 }]);
    expect([combined.p50Ms, combined.non2xx, combined.errors, combined.shed, combined.rps]).toEqual([
      0.5, 2, 1, 4, 500,
    ]);
  });

  it('keeps the highest p95 when every round has one, and none when a round lacks it', () => {
    const withP95 = (p95Ms: number) => ({ ...round(1_000, 2, 50, 0.5, 9, 100), p95Ms });
    expect(combineRounds([withP95(4), withP95(6.5), withP95(5)]).p95Ms).toBe(6.5);
    expect('p95Ms' in combineRounds([withP95(4), round(1_000, 2, 50, 0.5, 9, 100)])).toBe(false);
  });

  it('is the round itself when there is one', () => {
    const only = round(3_000, 3, 60, 0.7, 4, 120);
    expect(rounded(combineRounds([only]))).toEqual(rounded(only));
  });

  it('refuses no rounds', () => {
    expect(() => combineRounds([])).toThrow('No rounds to combine');
  });
});
