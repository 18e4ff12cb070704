// Runs Hearth as a server: migrate, listen, send webhooks and Slack announcements, sync Slack on a schedule if asked,
// and on SIGTERM/SIGINT finish the requests in flight, then exit 0.
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { TIGHTENED_MESSAGE, type ModeChange } from './db/sqlite-file-modes.js';
import { batchTimeouts, openStore, type Store } from './db/store.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { watchParent } from './lib/parent-watch.js';
import { endPastHungUpTerminal } from './lib/hung-up-terminal.js';
import { holdStopSignals, STOP_SIGNALS } from './lib/stop-signals.js';
import { upgradeStore } from './store-upgrade.js';
import { createEventWritesService } from './events/event-writes.service.js';
import { parseDuration } from './lib/duration.js';
import type { Repeating } from './lib/repeat-every.js';
import { startAnnouncer, type Announcer, type AnnouncerOptions } from './slack/announcement-sender.js';
import { startScheduledSync } from './slack/scheduled-sync.js';
import { startDispatcher, type Dispatcher } from './webhooks/webhook-dispatcher.js';
import { startInboxApplier, type InboxApplier } from './slack/inbox-applier.js';
import { slackApi } from './slack/web-api.js';
import { startSocketMode, type SocketMode } from './slack/socket-mode.js';

/** Longest wait for requests in flight after a signal; then the process exits 1. */
const DRAIN_MS = 10_000;

export class PortInUseError extends Error {}

export interface ServerOptions {
  /** A migrated store to serve (the server closes it, also when it fails to start); by default `config.databaseUrl` is opened and migrated. */
  store?: Store;
  metrics?: Metrics;
  /** The clock of the app and of the webhook dispatcher; the wall clock by default. */
  clock?: Clock;
  /**
   * Stop as on SIGTERM when this process exits: the shell `npx` (npm exec) runs Hearth in, which dies of the
   * signal npm hands it on and leaves Hearth behind (see `parent-watch.ts`).
   */
  parentPid?: number;
  /** Where the scheduled Slack sync keeps each community's unfinished pages (`data/slack`, as `hearth slack sync`). */
  slackStateDir?: string;
  /** The Slack announcer's timings (tests shorten them). */
  announcer?: Pick<AnnouncerOptions, 'pollMs' | 'timeoutMs' | 'retryBaseMs' | 'maxAttempts'>;
  /**
   * What the caller says once the server is up (`serve`'s address, `start`'s token and curl line): the last of the
   * start, so a stop signal's drain waits for it and the store it reads stays open until it is done.
   */
  onStarted?(app: FastifyInstance): Promise<void> | void;
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<FastifyInstance> {
  let store = options.store;
  // What the first open tightened (the migrations' store), logged once the app's logger exists.
  let tightened: readonly ModeChange[] = [];
  if (!store) {
    // Migrations may build indexes (and pending renders run) for longer than a request may wait: a connection of their own.
    const migrating = openStore(config.databaseUrl, 1, batchTimeouts);
    tightened = migrating.tightened;
    try {
      await upgradeStore(migrating);
    } finally {
      await migrating.close();
    }
    store = openStore(config.databaseUrl, config.databasePoolSize, {
      queryMs: config.databaseQueryTimeoutMs,
      acquireMs: config.databaseAcquireTimeoutMs,
    });
  }
  const metrics = options.metrics ?? createMetrics();
  const clock = options.clock ?? systemClock;
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { store, metrics, clock });
  } catch (error) {
    await store.close();
    throw error;
  }
  if (tightened.length > 0) app.log.warn({ files: tightened }, TIGHTENED_MESSAGE);
  const owned = store;
  app.addHook('onClose', () => owned.close());
  // Hooks must be added before listening; the dispatcher starts once the server listens.
  let dispatcher: Dispatcher | null = null;
  let announcer: Announcer | null = null;
  let slackSync: Repeating | null = null;
  let applier: InboxApplier | null = null;
  let sockets: SocketMode | null = null;
  app.addHook('preClose', async () => {
    // No envelope taken after this: one not acknowledged yet is sent again by Slack.
    await sockets?.stop();
    await applier?.stop();
    await Promise.all([dispatcher?.stop(), announcer?.stop(), slackSync?.stop()]);
  });

  // One stop signal (or, under npm, the exit of the launcher) drains (app.close waits for requests in flight, new ones
  // get 503) and exits 0; another signal later than its echo, an uncaught error or a drain longer than DRAIN_MS exits
  // 1. close-with-grace runs the drain and answers errors and the other signals; SIGINT and SIGTERM come through
  // stop-signals.ts, which holds them for the process's life (see there why).
  // Installed before listening: a signal that comes as soon as the server answers, while its senders and Slack's
  // sockets are still starting, drains as any other (it waits for them to have started, then stops them).
  let closing = false;
  let parentGone = false;
  let stopSignal: NodeJS.Signals | null = null;
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const grace = closeWithGrace(
    { delay: DRAIN_MS, logger: app.log, skip: [...STOP_SIGNALS] },
    async ({ signal, err }) => {
      closing = true;
      if (err) app.log.error({ err }, 'uncaught error: shutting down');
      else if (parentGone)
        app.log.info(
          { parent: options.parentPid },
          'the process that started Hearth exited: finishing requests in flight',
        );
      else app.log.info({ signal: signal ?? stopSignal }, 'shutting down: finishing requests in flight');
      await started;
      await app.close();
    },
  );
  const insist = (signal: NodeJS.Signals) => {
    app.log.error(`second ${signal}, exiting`);
    process.exit(1);
  };
  const signals = holdStopSignals({
    first: (signal) => {
      if (closing) return insist(signal);
      stopSignal = signal;
      void grace.close();
    },
    again: insist,
  });

  /** A start that failed: the signals given back and what did start stopped. */
  const abandon = async () => {
    grace.uninstall();
    signals.release();
    await app.close();
  };

  // Before listening, as the signals: a terminal closed as soon as the server answers (its SIGHUP drained by
  // close-with-grace) must not leave Hearth spinning on the terminal at exit.
  endPastHungUpTerminal();
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await abandon();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new PortInUseError(
        `Port ${config.port} on ${config.host} is already in use: stop what holds it, or choose another port with PORT=… or --port ….`,
      );
    }
    throw error;
  }

  // Watched from as soon as the server answers: a launcher gone while the rest starts (or while `start` prints its
  // token) stops it too.
  if (options.parentPid !== undefined) {
    const stopWatching = watchParent(options.parentPid, () => {
      // A Ctrl-C reaches the whole foreground group: Hearth may already be draining when its shell dies of it.
      if (closing) return;
      parentGone = true;
      void grace.close();
    });
    app.server.once('close', stopWatching);
  }

  // Every serving process sends webhooks; the outbox's claims keep two processes from sending one message at once.
  dispatcher = startDispatcher({
    store: owned,
    config,
    log: app.log.child({ component: 'webhooks' }),
    metrics,
    clock,
    onMessages: (wake) => app.writes.committed.subscribe((commit) => commit.messages > 0 && wake()),
  });
  // Every serving process sends Slack announcements the same way (claims keep one process per announcement).
  const eventWrites = createEventWritesService(app.writes, owned.dialect);
  announcer = startAnnouncer({
    store: owned,
    log: app.log.child({ component: 'slack-announcements' }),
    apiUrl: config.slackApiUrl,
    clock,
    recordPermalink: eventWrites.recordPermalink,
    onAnnouncements: (wake) => app.writes.committed.subscribe((commit) => commit.announcements > 0 && wake()),
    ...options.announcer,
  });
  if (config.slackSyncEvery !== null) {
    const everyMs = parseDuration(config.slackSyncEvery);
    const log = app.log.child({ component: 'slack-sync' });
    log.info({ every: config.slackSyncEvery }, 'scheduled slack sync on');
    slackSync = startScheduledSync({
      store: owned,
      writes: app.writes,
      clock,
      log,
      apiUrl: config.slackApiUrl,
      everyMs,
      stateDir: options.slackStateDir ?? join('data', 'slack'),
    });
  }

  // Every serving process applies Slack's inbox (slack/inbox-applier.ts): at once for what it acknowledged itself,
  // at its poll for what others did; claims keep two processes from applying one event.
  applier = startInboxApplier({
    store: owned,
    writes: app.writes,
    clock,
    apiFor: (token) => slackApi({ token, apiUrl: config.slackApiUrl, retries: 2 }),
    log: app.log.child({ component: 'slack-inbox' }),
  });
  const inbox = applier;
  app.slackInbox.subscribe(() => inbox.wake());
  // Socket Mode (slack/socket-mode.ts): a socket per community whose connection holds an app-level token, its
  // envelopes written to the same inbox. Connections made after the start are taken at the next start.
  try {
    sockets = await startSocketMode({
      store: owned,
      intake: app.slackIntake,
      apiUrl: config.slackApiUrl,
      log: app.log.child({ component: 'slack-socket-mode' }),
    });
    if (sockets.count > 0) app.log.info({ sockets: sockets.count }, 'Slack Socket Mode on');
    await options.onStarted?.(app);
  } catch (error) {
    // A start that failed after listening stops what did start, unless a signal's drain is already doing so.
    if (!closing) await abandon();
    throw error;
  } finally {
    // The last of the start: a signal's drain, waiting on it, stops what did start.
    markStarted();
  }

  return app;
}
