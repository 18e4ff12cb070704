// Hearth's Prometheus metrics (prom-client): requests by route template, method and status with their latency,
// rate-limit rejections, idempotent replays, imports (from the store: import-metrics.ts), webhook deliveries, the
// database pool, the answer cache, and the process's own metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/store.js';
import { importMetrics, type ReadImportRuns } from './import-metrics.js';
import { createRequestHistogram } from './request-histogram.js';

export interface AnswerCacheCounts {
  readonly hits: number;
  readonly misses: number;
  readonly compressed: Readonly<Record<string, number>>;
}

export interface Metrics {
  readonly registry: Registry;
  /** One answered request: its route template (`/admin/v0/posts/:post_id`), method, status and duration. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  readonly rateLimited: Counter;
  readonly idempotentReplays: Counter;
  /** Reads the import runs the store recorded at each scrape (at most once a second), whichever process ran them. */
  watchImports(read: ReadImportRuns): void;
  /** Reads the pool's state at each scrape; a store without a pool (SQLite) reports none. */
  watchPool(read: () => PoolStats | null): void;
  /** Reads the answer cache's hit and miss counts, and the compressed forms it made by coding, at each scrape. */
  watchAnswerCache(stats: AnswerCacheCounts): void;
  /** One webhook attempt: whether the receiver took it, how long it took, and for a delivered message its lag since the change. */
  observeWebhookAttempt(ok: boolean, seconds: number, lagSeconds: number | null): void;
  /** Messages given up after 24 hours of failed attempts. */
  readonly webhookFailures: Counter;
}

/** Latencies from 0.5 ms (an id lookup) to 10 s (the statement timeout is 15 s). */
const requestBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** From a few milliseconds (sent at once) to a day (the last retry). */
const lagBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86_400];

let processRegistry: Registry | undefined;
/** Process metrics (CPU, memory, event loop, GC) are per process: collected once, whatever the number of apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = createRequestHistogram(
    'hearth_http_request_duration_seconds',
    'Requests answered, by route template, method and status, and how long each took (its _count is the request count)',
    requestBuckets,
  );
  registry.registerMetric(requests.metric);
  const rateLimited = new Counter({
    name: 'hearth_rate_limited_total',
    help: 'Requests refused with 429 by the rate limit',
    registers,
  });
  const idempotentReplays = new Counter({
    name: 'hearth_idempotent_replays_total',
    help: 'Requests answered from a stored Idempotency-Key answer',
    registers,
  });
  const webhookAttempts = new Histogram({
    name: 'hearth_webhook_attempt_duration_seconds',
    help: 'Webhook attempts by outcome (ok: the receiver answered 2xx) and how long each took',
    labelNames: ['outcome'] as const,
    buckets: requestBuckets,
    registers,
  });
  const webhookLag = new Histogram({
    name: 'hearth_webhook_delivery_lag_seconds',
    help: 'Time from a change to the delivery of its webhook message, retries included',
    buckets: lagBuckets,
    registers,
  });
  const webhookFailures = new Counter({
    name: 'hearth_webhook_messages_failed_total',
    help: 'Webhook messages marked failed after 24 hours of failed attempts',
    registers,
  });

  // Counts kept by their owner (a plain increment on its hot path); the counters copy the totals when scraped.
  const copied = (name: string, help: string, pick: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(pick());
      },
    });

  return {
    registry,
    observeRequest: (route, method, status, seconds) => requests.histogram.observe(route, method, status, seconds),
    rateLimited,
    idempotentReplays,
    watchImports(read) {
      for (const metric of importMetrics(read)) registry.registerMetric(metric);
    },
    observeWebhookAttempt(ok, seconds, lagSeconds) {
      webhookAttempts.observe({ outcome: ok ? 'ok' : 'failed' }, seconds);
      if (lagSeconds !== null) webhookLag.observe(lagSeconds);
    },
    webhookFailures,
    watchPool(read) {
      const gauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const stats = read();
            if (stats) this.set(pick(stats));
          },
        });
      gauge('hearth_db_pool_size', 'Database connections the pool may open (PostgreSQL)', (s) => s.size);
      gauge('hearth_db_pool_in_use', 'Database connections running a query (PostgreSQL)', (s) => s.inUse);
      gauge('hearth_db_pool_idle', 'Open database connections waiting for work (PostgreSQL)', (s) => s.idle);
      gauge('hearth_db_pool_waiting', 'Queries waiting for a free database connection (PostgreSQL)', (s) => s.waiting);
    },
    watchAnswerCache(stats) {
      copied('hearth_answer_cache_hits_total', 'Answers served from the in-memory answer cache', () => stats.hits);
      copied(
        'hearth_answer_cache_misses_total',
        'Answers the answer cache did not hold, read from the store',
        () => stats.misses,
      );
      new Counter({
        name: 'hearth_answer_cache_compressions_total',
        help: 'Compressed forms made of cached answers, by coding (each cached answer at most once per coding)',
        labelNames: ['encoding'] as const,
        registers,
        collect() {
          this.reset();
          for (const [encoding, count] of Object.entries(stats.compressed)) this.inc({ encoding }, count);
        },
      });
    },
  };
}

/** The text a scrape answers: this app's metrics and the process's. */
export async function scrape(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([metrics.registry, processMetrics()]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
