// Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the store answers too).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import { errorResponses } from './error-responses.js';

const Health = Type.Object({ status: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  const hidden = { hide: true, tags: ['Operations'] };
  app.get('/healthz', { schema: { ...hidden, response: { 200: Health } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { ...hidden, response: { 200: Health, ...errorResponses(503) } } }, async () => {
    try {
      await store.dialect.ping(store.db);
    } catch (error) {
      throw new AppError('unavailable', 'The database does not answer.', undefined, { 'retry-after': '1' });
    }
    return { status: 'ok' };
  });
};
