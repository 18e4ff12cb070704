// The request-duration histogram, counted with a few array writes per request and handed to prom-client's
// registry at scrape time in the shape its own histograms take (same lines, same order).
//
// Hand-written because prom-client's `observe` validates and hashes the labels on every call, a visible share of a
// cached by-id answer (measured: bench/analysis.md, 'Figures behind the code's choices'); here a request finds
// its series through nested maps and adds to one bucket.
import type { Metric } from 'prom-client';

interface Series {
  labels: { route: string; method: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is past the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface Sample {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

export interface RequestHistogram {
  observe(route: string, method: string, status: number, seconds: number): void;
}

export function createRequestHistogram(
  name: string,
  help: string,
  bounds: readonly number[],
): { histogram: RequestHistogram; metric: Metric } {
  const series = new Map<string, Map<string, Map<number, Series>>>();
  const all: Series[] = [];

  const find = (route: string, method: string, status: number): Series => {
    let byMethod = series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let found = byStatus.get(status);
    if (!found) {
      found = {
        labels: { route, method, status: String(status) },
        buckets: new Float64Array(bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, found);
      all.push(found);
    }
    return found;
  };

  const samples = (): Sample[] => {
    const out: Sample[] = [];
    for (const { labels, buckets, sum, count } of all) {
      let cumulative = 0;
      bounds.forEach((le, i) => {
        cumulative += buckets[i] ?? 0;
        out.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` });
      });
      out.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket` });
      out.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` });
      out.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` });
    }
    return out;
  };

  const histogram: RequestHistogram = {
    observe(route, method, status, seconds) {
      const target = find(route, method, status);
      let i = 0;
      while (i < bounds.length && seconds > (bounds[i] as number)) i++;
      target.buckets[i] = (target.buckets[i] ?? 0) + 1;
      target.sum += seconds;
      target.count++;
    },
  };
  // What a registry asks of a metric: its name, help and type, its samples, and a reset.
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: samples() }),
    reset: () => {
      series.clear();
      all.length = 0;
    },
  } as unknown as Metric;
  return { histogram, metric };
}
