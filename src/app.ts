// Builds the Hearth application: one factory for the server, the command line and the tests.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { openStore, type Store } from './db/store.js';
import { createEventsService } from './events/events.service.js';
import { eventsRoutes } from './events/events.routes.js';
import { registerAuth } from './http/auth.js';
import { registerErrorHandler, sendError, toAppError } from './http/error-handler.js';
import { registerEtag } from './http/etag.js';
import { healthRoutes } from './http/health.routes.js';
import { registerNotFound } from './http/not-found.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.js';
import { requestIdFrom } from './http/request-id.js';
import { createIdempotencyService } from './idempotency/idempotency.service.js';
import { createMembersService } from './members/members.service.js';
import { membersRoutes } from './members/members.routes.js';
import { createPostsService } from './posts/posts.service.js';
import { postsRoutes } from './posts/posts.routes.js';
import { searchIndexFor } from './search/search-index.js';
import { createSearchService } from './search/search.service.js';
import { searchRoutes } from './search/search.routes.js';
import { createTokensService } from './tokens/tokens.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: Store;
  }
}

export interface AppOptions {
  /** An open store to use instead of opening `config.databaseUrl` (the caller then closes it). */
  store?: Store;
  /** Milliseconds since the epoch; tests fix it to make "upcoming" and "past" exact. */
  clock?: () => number;
  /** Pino options or `false`; defaults to JSON logs at `config.logLevel`. */
  logger?: boolean | object;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const store = options.store ?? openStore(config.databaseUrl, config.databasePoolSize);
  const clock = options.clock ?? Date.now;

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
    },
    genReqId: requestIdFrom,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // Malformed URLs and the like fail before routing; they leave through the same error body.
    frameworkErrors: (error, request, reply) => sendError(reply, request, toAppError(error, store.dialect)),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('store', store);
  if (!options.store) app.addHook('onClose', () => store.close());

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandler(app, store.dialect);
  registerNotFound(app);
  // Before every route: the document is generated from the routes registered after it.
  await registerOpenApi(app);

  // Several processes share their rate-limit counters through Redis; alone, memory is enough.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 }) : null;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));

  const tokens = createTokensService(store.db, clock);
  const events = createEventsService(store.db, clock);
  const search = createSearchService(store.db, searchIndexFor(store.dialect));
  const members = createMembersService(store.db, clock);
  const idempotency = createIdempotencyService(store.db, clock);
  const posts = createPostsService(store.db);

  await app.register(healthRoutes, { store });
  await app.register(
    async (admin) => {
      await registerRateLimit(admin, config.rateLimitPerSecond, redis);
      registerAuth(admin, tokens);
      registerEtag(admin);
      await admin.register(eventsRoutes, { events });
      await admin.register(searchRoutes, { search });
      await admin.register(membersRoutes, { members, idempotency });
      await admin.register(postsRoutes, { posts });
    },
    { prefix: '/admin/v0' },
  );

  return app;
}
