// `GET /metrics` (Prometheus text; its own optional METRICS_TOKEN, not an admin token) and the hook that counts every answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import type { ReadImportRuns } from '../metrics/import-metrics.js';
import { scrape, type AnswerCacheCounts, type Metrics } from '../metrics/metrics.js';
import { bearerOf } from './bearer.js';

/** The route label of requests that matched no route: one value, so unknown paths cannot multiply the series. */
const UNMATCHED = 'unmatched';

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface MetricsSources {
  store: Store;
  answerCache: { readonly stats: AnswerCacheCounts };
  /** The import runs the store recorded, summed (import-runs.repository.ts). */
  importRuns: ReadImportRuns;
  /** METRICS_TOKEN, or null for an open endpoint. */
  token: string | null;
}

export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  { store, answerCache, importRuns, token }: MetricsSources,
): void {
  if (store.poolStats() !== null) metrics.watchPool(() => store.poolStats());
  metrics.watchAnswerCache(answerCache.stats);
  metrics.watchImports(importRuns);

  // One histogram observation per request, labelled by the route template, never the raw URL.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    metrics.observeRequest(request.routeOptions.url ?? UNMATCHED, request.method, status, reply.elapsedTime / 1000);
    if (status === 429) metrics.rateLimited.inc();
    else if (request.method === 'POST' && reply.hasHeader('idempotent-replayed')) metrics.idempotentReplays.inc();
    done();
  });

  const expected = token === null ? null : digest(token);
  // Scraped like a probe (and guarded by its own token when set): never rate-limited, logged at debug.
  app.get('/metrics', { config: { rateLimit: false, probe: true }, schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const presented = bearerOf(request);
      // Digests of equal length, compared in constant time: the answer's timing says nothing of the token.
      if (presented === null || !timingSafeEqual(digest(presented.secret), expected)) {
        throw new AppError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".');
      }
    }
    const { contentType, body } = await scrape(metrics);
    return reply.type(contentType).send(body);
  });
}
