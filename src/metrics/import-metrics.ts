// The import metrics, read from the store's record of runs (not this process's memory), so that an import made by
// another process — `hearth import`, a pull, a connector — shows up too: runs by source and outcome, records
// written by kind, how long completed runs took, and when each source last completed one.
import type { Metric } from 'prom-client';

/** The runs of one source that ended one way, summed by the store (import-runs.repository.ts). */
export interface ImportRunGroup {
  source: string;
  outcome: string;
  runs: number;
  /** When the last of them ended, in milliseconds since the epoch. */
  lastFinishedMs: number;
  /** Records written, by kind. */
  kinds: Record<string, number>;
  durationSeconds: number;
  /** How many took at most each bucket bound, in order. */
  within: number[];
}

/** Reads every run summed by source and outcome, with the counts of a histogram of these bucket bounds. */
export type ReadImportRuns = (boundsSeconds: readonly number[]) => Promise<ImportRunGroup[]>;

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A scrape reads the store at most this often; scrapes in between (several Prometheus servers) share the answer. */
const READ_EVERY_MS = 1000;

/** From a fraction of a second (a few records) to an hour (millions). */
export const importBuckets = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

/**
 * The runs as last read, at most READ_EVERY_MS old. A store that cannot answer leaves the last totals read (none
 * before the first) and is asked again after the same pause: the scrape still answers the process's own metrics.
 */
function cachedGroups(read: ReadImportRuns): () => Promise<ImportRunGroup[]> {
  let groups: ImportRunGroup[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<ImportRunGroup[]> | null = null;
  return () => {
    if (reading) return reading;
    if (performance.now() - readAt < READ_EVERY_MS) return Promise.resolve(groups);
    reading = read(importBuckets)
      .then(
        (fresh) => {
          groups = fresh;
          return fresh;
        },
        () => groups,
      )
      .finally(() => {
        readAt = performance.now();
        reading = null;
      });
    return reading;
  };
}

/** A metric whose samples are computed from the runs at each scrape, in the shape prom-client's own take. */
function fromRuns(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  groups: () => Promise<ImportRunGroup[]>,
  samples: (groups: ImportRunGroup[]) => Sample[],
): Metric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: samples(await groups()) }),
    reset: () => {},
  } as unknown as Metric;
}

const completed = (groups: ImportRunGroup[]) => groups.filter((group) => group.outcome === 'completed');

export function importMetrics(read: ReadImportRuns): Metric[] {
  const groups = cachedGroups(read);
  return [
    fromRuns(
      'hearth_import_runs_total',
      'Import runs recorded in the store, by source (import, pull, demo, a connector) and outcome (completed, refused, interrupted, failed)',
      'counter',
      groups,
      (all) => all.map((group) => ({ labels: { source: group.source, outcome: group.outcome }, value: group.runs })),
    ),
    fromRuns(
      'hearth_import_records_total',
      'Records written by completed imports, by kind',
      'counter',
      groups,
      (all) => {
        const done = completed(all);
        if (done.length === 0) return [];
        const totals = new Map<string, number>();
        for (const group of done)
          for (const [kind, count] of Object.entries(group.kinds)) totals.set(kind, (totals.get(kind) ?? 0) + count);
        return [...totals].map(([kind, value]) => ({ labels: { kind }, value }));
      },
    ),
    fromRuns(
      'hearth_import_duration_seconds',
      'Completed imports and how long each took (its _count is the number of completed imports)',
      'histogram',
      groups,
      (all): Sample[] => {
        const done = completed(all);
        const count = done.reduce((sum, group) => sum + group.runs, 0);
        const sum = done.reduce((total, group) => total + group.durationSeconds, 0);
        const name = 'hearth_import_duration_seconds';
        return [
          ...importBuckets.map((le, i) => ({
            labels: { le },
            value: done.reduce((within, group) => within + (group.within[i] ?? 0), 0),
            metricName: `${name}_bucket`,
          })),
          { labels: { le: '+Inf' }, value: count, metricName: `${name}_bucket` },
          { labels: {}, value: sum, metricName: `${name}_sum` },
          { labels: {}, value: count, metricName: `${name}_count` },
        ];
      },
    ),
    fromRuns(
      'hearth_import_last_completed_timestamp_seconds',
      'When the last completed import of each source ended, in seconds since the epoch',
      'gauge',
      groups,
      (all) => {
        const last = new Map<string, number>();
        for (const group of completed(all))
          last.set(group.source, Math.max(last.get(group.source) ?? 0, group.lastFinishedMs));
        return [...last].map(([source, ms]) => ({ labels: { source }, value: ms / 1000 }));
      },
    ),
  ];
}
