// Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the store answers too, within a
// second). Redis is reported but never fails readiness: without it each process counts its own limits.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import { StringEnum } from '../schemas/common.js';
import { errorResponses } from '../schemas/error-responses.js';

const Health = Type.Object({
  status: Type.String(),
  redis: Type.Optional(StringEnum(['ok', 'degraded'], { description: 'Present when REDIS_URL is set' })),
});

/** A readiness probe must answer before the prober gives up, whatever the database does. */
const READY_DEADLINE_MS = 800;

function withinDeadline(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([
    work.then(
      () => true,
      () => false,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store; redis: () => 'ok' | 'degraded' | null }> = async (
  app,
  { store, redis },
) => {
  const probe = { hide: true, tags: ['Operations'] };
  // Never refused, and logged at debug: an orchestrator asks often.
  const config = { rateLimit: false, probe: true } as const;
  app.get('/healthz', { config, schema: { ...probe, response: { 200: Health } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, schema: { ...probe, response: { 200: Health, ...errorResponses(503) } } }, async () => {
    if (!(await withinDeadline(store.dialect.ping(store.db), READY_DEADLINE_MS))) {
      throw new AppError('unavailable', 'The database does not answer.', undefined, { 'retry-after': '1' });
    }
    const sharing = redis();
    return sharing === null ? { status: 'ok' } : { status: 'ok', redis: sharing };
  });
};
