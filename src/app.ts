// Builds the Hearth application: one factory for the server, the command line and the tests.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { TIGHTENED_MESSAGE } from './db/sqlite-file-modes.js';
import { openStore, type Store } from './db/store.js';
import { AppError } from './errors.js';
import { badgesRoutes } from './badges/badges.routes.js';
import { adminCalendarRoutes, subscriptionRoutes } from './calendar/calendar.routes.js';
import { createCalendarFeedsService } from './calendar/calendar-feeds.service.js';
import { createCalendarService } from './calendar/calendar.service.js';
import { createBadgesService } from './badges/badges.service.js';
import { createEventsService } from './events/events.service.js';
import { createAnswerCache } from './fragments/answer-cache.js';
import { createFragmentReader } from './fragments/fragment-reader.js';
import { eventReminders } from './events/events.repository.js';
import { eventsRoutes } from './events/events.routes.js';
import { eventWritesRoutes } from './events/event-writes.routes.js';
import { createEventWritesService } from './events/event-writes.service.js';
import { createFeedsService } from './feeds/feeds.service.js';
import { feedsRoutes } from './feeds/feeds.routes.js';
import { createGroupsService } from './groups/groups.service.js';
import { groupsRoutes } from './groups/groups.routes.js';
import { decorateBearer } from './http/bearer.js';
import { registerAuth } from './tokens/auth.js';
import { registerBodyDeadline } from './http/body-deadline.js';
import { registerCompression } from './http/compression.js';
import { answerExpectations, clientErrorHandler } from './http/client-errors.js';
import { registerCors } from './http/cors.js';
import { registerErrorHandler, sendError, toAppError } from './http/error-handler.js';
import { registerEtag } from './http/etag.js';
import { createHostedAnswers, registerHostedMode } from './http/hosted-mode.js';
import { healthRoutes } from './http/health.routes.js';
import { registerInputGuards } from './http/input-guards.js';
import { registerJsonBody } from './http/json-body.js';
import { validatorsByPart } from './http/validators.js';
import { registerMetrics } from './http/metrics.routes.js';
import { registerNotFound } from './http/not-found.js';
import { registerOpenApi } from './openapi/openapi.js';
import { createRateLimit, registerRateLimit, type RateLimit } from './http/rate-limit.js';
import { requestIdFrom } from './http/request-id.js';
import { requestLogger } from './http/request-logger.js';
import { RequestLog } from './http/request-log.js';
import { loggerOptions, logFormOf, type LogDestination } from './http/log-output.js';
import { localCounter, SharedCounter, type RequestCounter } from './http/shared-counter.js';
import { createIdempotencyService } from './idempotency/idempotency.service.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createMembersService } from './members/members.service.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { importRunGroups } from './import-runs/import-runs.repository.js';
import { membersRoutes } from './members/members.routes.js';
import { createPostsService } from './posts/posts.service.js';
import { postsRoutes } from './posts/posts.routes.js';
import { registrationsRoutes } from './registrations/registrations.routes.js';
import { createRegistrationsService } from './registrations/registrations.service.js';
import { searchIndexFor } from './search/search-index-factory.js';
import { createSearchService } from './search/search.service.js';
import { searchRoutes } from './search/search.routes.js';
import { apiKeyRoutes } from './tokens/api-key.routes.js';
import { createTokensService } from './tokens/tokens.service.js';
import { createWriteRunner, type WriteRunner } from './writes/write-runner.js';
import { refreshFragments } from './rendering/fragment-refresh.js';
import { createInboxIntake, type InboxIntake } from './slack-inbox/inbox-intake.js';
import { slackEventsRoutes } from './slack-inbox/slack-events.routes.js';
import { createSignal, type Signal } from './lib/signal.js';
import { consolePlugin } from './console/console.plugin.js';
import { createOperatorsService } from './operators/operators.service.js';
import { createWebhooksService } from './webhooks/webhooks.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: Store;
    /** The one write path of this process: the server wakes its webhook dispatcher on its commits. */
    writes: WriteRunner;
    /** Emitted when a Slack envelope was written to the inbox: the server's applier takes it at once. */
    slackInbox: Signal<void>;
    /** Writes Slack's event envelopes to the inbox: the request URL's, and Socket Mode's in `hearth serve`. */
    slackIntake: InboxIntake;
  }
}

export interface AppOptions {
  /** An open store to use instead of opening `config.databaseUrl` (the caller then closes it). */
  store?: Store;
  /** The one clock of every service (milliseconds since the epoch); tests fix it to make "upcoming" and "past" exact. */
  clock?: Clock;
  /** Pino options (JSON lines) or `false`; by default logs at `config.logLevel` in `config.logFormat`. */
  logger?: boolean | object;
  /** Where the logs of `config.logFormat` go (and whether it is a terminal); stdout by default. */
  logDestination?: LogDestination;
  /** Metrics to add to (the server's, which its webhook dispatcher also counts in); new ones by default. */
  metrics?: Metrics;
  /** Builds the request counter of the rate limits (tests time it); defaults to Redis with `config.redisUrl`, else in-process. The app closes it. */
  requestCounter?: (log: FastifyBaseLogger) => RequestCounter;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const store =
    options.store ??
    openStore(config.databaseUrl, config.databasePoolSize, {
      queryMs: config.databaseQueryTimeoutMs,
      acquireMs: config.databaseAcquireTimeoutMs,
    });
  const clock = options.clock ?? systemClock;
  // Framework errors are answered before any hook runs; they are counted all the same, once this is set.
  let rateLimit: RateLimit | null = null;

  const logDestination = options.logDestination ?? process.stdout;
  const logForm = options.logger === undefined ? logFormOf(config.logFormat, logDestination) : 'json';

  const app = Fastify({
    logger: options.logger ?? (await loggerOptions(config, logForm, logDestination)),
    genReqId: requestIdFrom,
    // Each request's logger is made when it first writes: at LOG_LEVEL=warn a cached answer makes none.
    childLoggerFactory: requestLogger,
    logController: new RequestLog(logForm === 'pretty'),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // Node's own deadlines back up the body deadline (body-deadline.ts) for requests stuck in their headers;
    // `requireHostHeader` is checked below instead, where the answer can be the error body.
    requestTimeout: config.bodyTimeoutMs + 1000,
    http: {
      requestTimeout: config.bodyTimeoutMs + 1000,
      headersTimeout: config.bodyTimeoutMs,
      connectionsCheckingInterval: 1000,
      requireHostHeader: false,
    },
    clientErrorHandler,
    // Malformed URLs and the like fail before routing and before the hooks; they leave through the same error body.
    frameworkErrors: (error, request, reply) => {
      void Promise.resolve()
        .then(() => rateLimit?.limit(request, reply))
        .then(
          () => toAppError(error, store.dialect),
          (limited: unknown) => toAppError(limited, store.dialect),
        )
        .then((appError) => sendError(reply, request, appError));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Before any plugin: every context inherits it. Bodies are judged as sent, the other parts coerced from text.
  app.setValidatorCompiler(validatorsByPart());
  answerExpectations(app.server);

  app.decorate('config', config);
  app.decorate('store', store);
  if (!options.store) app.addHook('onClose', () => store.close());
  if (store.tightened.length > 0) app.log.warn({ files: store.tightened }, TIGHTENED_MESSAGE);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Several processes share their rate-limit counters through Redis; alone, memory is enough.
  const counter =
    options.requestCounter?.(app.log) ??
    (config.redisUrl ? SharedCounter.connect(config.redisUrl, app.log) : localCounter(1000));
  app.addHook('onReady', () => counter.ready(500));
  app.addHook('onClose', () => counter.close());
  const rateLimitSettings = {
    perSecond: config.rateLimitPerSecond,
    authFailuresPerSecond: config.authFailuresPerSecond,
  };
  decorateBearer(app);
  // Built here, before the limiter: its memory of valid secrets lets them past an address's failed-auth limit.
  const tokens = createTokensService(store.db, clock);
  rateLimit = createRateLimit(counter, rateLimitSettings, (secret) => tokens.knownValid(secret));
  registerRateLimit(app, rateLimit);
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return done();
    done(new AppError('bad_request', 'An HTTP/1.1 request needs a Host header.', undefined, { connection: 'close' }));
  });
  registerBodyDeadline(app, config.bodyTimeoutMs);
  registerJsonBody(app);
  registerInputGuards(app);
  registerErrorHandler(app, store.dialect);
  const notFound = registerNotFound(app);
  const writes = createWriteRunner(store.db, clock, refreshFragments);
  app.decorate('writes', writes);
  const answerCache = createAnswerCache(store, config.answerCacheBytes, (listener) =>
    writes.committed.subscribe(listener),
  );
  const hostedAnswers = createHostedAnswers((listener) => answerCache.onChange(listener), answerCache.stats.compressed);
  // Before every route (the docs page's and /metrics included): the plugin adds its hook to each route registered after it.
  if (config.compression)
    await registerCompression(
      app,
      (body, coding) => answerCache.compressed(body, coding) ?? hostedAnswers.compressed(body, coding),
    );
  await registerCors(app, config.corsOrigins);
  // Before every route: the document is generated from the routes registered after it.
  await registerOpenApi(app, config.console ? '/console' : '/docs');

  const answers = createFragmentReader(store, answerCache);
  const events = createEventsService(answers, store.hot, clock);
  const search = createSearchService(store.db, store.hot, answers, searchIndexFor(store.dialect), clock);
  const members = createMembersService(writes, store.db);
  const idempotency = createIdempotencyService(store.db, clock);
  const eventWrites = createEventWritesService(writes, store.dialect);
  const posts = createPostsService(answers, store.hot, clock);
  const feeds = createFeedsService(store.db, store.dialect);
  const badges = createBadgesService(store.db, store.dialect, writes);
  const groups = createGroupsService(store.db, store.dialect, writes);
  const registrations = createRegistrationsService(store.db, store.dialect, writes);
  const calendars = createCalendarService(store.db, createCalendarFeedsService(store.db, clock), clock, answerCache);

  const metrics = options.metrics ?? createMetrics();
  registerMetrics(app, metrics, {
    store,
    answerCache,
    importRuns: (bounds) => importRunGroups(store.db, bounds),
    token: config.metricsToken,
  });
  await app.register(healthRoutes, { store, redis: () => counter.sharing });
  await app.register(subscriptionRoutes, { calendars });
  const slackInbox = createSignal<void>();
  app.decorate('slackInbox', slackInbox);
  const slackIntake = createInboxIntake(store, clock, () => slackInbox.emit());
  app.decorate('slackIntake', slackIntake);
  await app.register(slackEventsRoutes, { store, clock, intake: slackIntake });
  await app.register(
    async (admin) => {
      registerAuth(admin, tokens);
      registerHostedMode(
        admin,
        (communityId, eventIds) => eventReminders(store.db, communityId, eventIds),
        hostedAnswers,
      );
      registerEtag(admin);
      admin.setNotFoundHandler(notFound);
      await admin.register(eventsRoutes, { events });
      await admin.register(adminCalendarRoutes, { calendars });
      await admin.register(eventWritesRoutes, { writes: eventWrites, idempotency });
      await admin.register(registrationsRoutes, { registrations, idempotency });
      await admin.register(searchRoutes, { search });
      await admin.register(membersRoutes, { members, idempotency });
      await admin.register(postsRoutes, { posts });
      await admin.register(feedsRoutes, { feeds });
      await admin.register(badgesRoutes, { badges, idempotency });
      await admin.register(groupsRoutes, { groups });
      await admin.register(apiKeyRoutes, { tokens });
    },
    { prefix: '/admin/v0' },
  );

  if (config.console) {
    // Sign-in attempts are counted per address over a minute, apart from the per-second request limits.
    // Its Redis outages are the request counter's too, which already says so once: this one only logs errors.
    const signInCounter = config.redisUrl
      ? SharedCounter.connect(config.redisUrl, app.log.child({ component: 'console-sign-in' }, { level: 'error' }), {
          windowMs: 60_000,
          deadlineMs: 30,
          probeMs: 500,
          keyPrefix: 'hearth:signin:',
        })
      : localCounter(60_000);
    app.addHook('onClose', () => signInCounter.close());
    await app.register(consolePlugin, {
      prefix: '/console',
      config,
      store,
      clock,
      writes,
      operators: createOperatorsService(store.db, clock),
      events,
      eventWrites,
      posts,
      feeds,
      search,
      members,
      tokens,
      webhooks: createWebhooksService(store.db, clock),
      metrics,
      answerCache: answerCache.stats,
      redis: () => counter.sharing,
      signInCounter,
    });
  }

  return app;
}
