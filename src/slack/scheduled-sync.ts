// `hearth serve --slack-sync-every 1h`: `hearth slack sync`'s service run on a schedule for every community with a
// connected bot token, one after the other, healing what the Events API never delivered (Slack drops events above
// its rate limit). Runs never overlap (lib/repeat-every.ts); a stop aborts between calls and between import steps,
// and an unfinished sync resumes at its page the next time, as the command's does.
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import { repeatEvery, type Repeating } from '../lib/repeat-every.js';
import { toStored } from '../lib/timestamps.js';
import type { WriteRunner } from '../writes/write-runner.js';
import { connectedCommunities, markSynced } from './slack-connections.repository.js';
import { syncFiles } from './sync-state.js';
import { syncSlack } from './sync.service.js';
import { slackApi, type SlackApi } from './web-api.js';

export interface ScheduledSyncOptions {
  store: Store;
  writes: WriteRunner;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Slack's Web API base URL (config SLACK_API_URL). */
  apiUrl: string;
  /** Milliseconds from the end of one run to the start of the next. */
  everyMs: number;
  /** Where each community's unfinished sync keeps its pages: `<dir>/<slug>`, as `hearth slack sync` does. */
  stateDir: string;
  /** Run once at start as well (tests); by default the first run waits `everyMs`. */
  runAtStart?: boolean;
}

/** The API, refusing new calls once the schedule is stopping (a call in flight ends at its own deadline). */
const stoppable =
  (api: SlackApi, signal: AbortSignal): SlackApi =>
  (method, args) => {
    signal.throwIfAborted();
    return api(method, args);
  };

export function startScheduledSync(options: ScheduledSyncOptions): Repeating {
  const { store, log } = options;
  return repeatEvery(
    async (signal) => {
      const communities = await connectedCommunities(store.db);
      log.info({ communities: communities.length }, 'scheduled slack sync starting');
      for (const community of communities) {
        if (signal.aborted) return;
        const started = performance.now();
        try {
          const result = await syncSlack({
            store,
            api: stoppable(slackApi({ token: community.bot_token, apiUrl: options.apiUrl, retries: 3 }), signal),
            files: syncFiles(join(options.stateDir, community.slug)),
            community: { id: community.id, slug: community.slug },
            channels: community.channels === null ? null : (JSON.parse(community.channels) as string[]),
            sinceMs: null,
            // As `hearth slack sync` by default: the last 30 days' threads read again for replies the events missed.
            rereadDays: 30,
            restart: false,
            pageSize: 200,
            clock: options.clock,
            writes: options.writes,
            signal,
            progress: () => {},
          });
          await markSynced(store.db, community.id, toStored(options.clock()), result.domain);
          log.info(
            {
              community: community.slug,
              records: result.imported.records,
              messages: result.fetched.messages,
              ms: Math.round(performance.now() - started),
            },
            'scheduled slack sync done',
          );
        } catch (error) {
          if (signal.aborted) return;
          log.warn({ community: community.slug, err: error }, 'scheduled slack sync failed; the next run resumes it');
        }
      }
    },
    {
      everyMs: options.everyMs,
      runAtStart: options.runAtStart,
      onError: (error) => log.error({ err: error }, 'scheduled slack sync could not run'),
    },
  );
}
