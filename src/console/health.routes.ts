// The health page: the store's answer time, Redis, the answer cache's hit rate, requests and errors from this
// server's own metrics (what /metrics exports), and the community's audit trail.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAudit } from '../audit/audit.service.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ConsoleDeps } from './console-deps.js';
import { PageParams, SlugParams } from './forms.js';
import { page } from './render.js';
import { communityOf } from './session.js';

interface RequestTotals {
  total: number;
  clientErrors: number;
  serverErrors: number;
}

/** Requests answered since the server started, by status class, from the request histogram's counts. */
async function requestTotals(metrics: Metrics): Promise<RequestTotals> {
  const totals = { total: 0, clientErrors: 0, serverErrors: 0 };
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    if (metric.name !== 'hearth_http_request_duration_seconds') continue;
    for (const sample of metric.values as {
      metricName?: string;
      labels: Record<string, string | number>;
      value: number;
    }[]) {
      if (sample.metricName !== 'hearth_http_request_duration_seconds_count') continue;
      const status = Number(sample.labels['status']);
      totals.total += sample.value;
      if (status >= 500) totals.serverErrors += sample.value;
      else if (status >= 400) totals.clientErrors += sample.value;
    }
  }
  return totals;
}

export const healthRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { store, metrics, answerCache, redis, clock } = deps;
  // The rate since the last look at this page (this process's), and since the process started.
  let last: { at: number; totals: RequestTotals } | null = null;

  app.get(
    '/c/:slug/health',
    { schema: { hide: true, params: SlugParams, querystring: Type.Object(PageParams) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const started = performance.now();
      let storeState = 'ok';
      try {
        await store.dialect.ping(store.db);
      } catch {
        storeState = 'unavailable';
      }
      const storeMs = performance.now() - started;
      const totals = await requestTotals(metrics);
      const now = clock();
      const since = last && now > last.at ? { seconds: (now - last.at) / 1000, totals: last.totals } : null;
      last = { at: now, totals };
      const lookups = answerCache.hits + answerCache.misses;
      const { page: pageNumber, per_page } = request.query;
      const rows = await listAudit(store.db, community.id, (pageNumber + 1) * per_page + 1);
      return page(request, reply, 'health', {
        title: 'Health',
        community,
        section: 'health',
        store: { name: store.dialect.name, state: storeState, ms: storeMs.toFixed(1) },
        redis: redis() ?? 'not configured (each process counts its own rate limits)',
        cache: {
          hits: answerCache.hits,
          misses: answerCache.misses,
          rate: lookups === 0 ? null : ((100 * answerCache.hits) / lookups).toFixed(1),
        },
        requests: {
          ...totals,
          perSecondSinceStart: (totals.total / Math.max(1, process.uptime())).toFixed(2),
          perSecondRecent: since ? ((totals.total - since.totals.total) / since.seconds).toFixed(2) : null,
          errorsRecent: since
            ? totals.serverErrors - since.totals.serverErrors + (totals.clientErrors - since.totals.clientErrors)
            : null,
          recentSeconds: since ? since.seconds.toFixed(0) : null,
        },
        audit: {
          page: pageNumber,
          records: rows.slice(pageNumber * per_page, (pageNumber + 1) * per_page),
          has_next: rows.length > (pageNumber + 1) * per_page,
        },
      });
    },
  );
};
