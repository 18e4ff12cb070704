// The outbox's retention: messages delivered or failed more than WEBHOOK_RETENTION_DAYS ago are deleted with their
// attempts, a small batch per statement so that no write waits long behind them; pending messages are kept.
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import { toStored } from '../lib/timestamps.js';
import { pruneFinished } from './webhooks.repository.js';

/** Messages per delete statement: each is a short transaction of its own. */
export const PRUNE_BATCH = 500;
/** At most this many statements per run; a larger backlog is taken up again at the next run. */
const MAX_BATCHES_PER_RUN = 40;
/** How often a dispatcher prunes: the outbox need not be exact to the second. */
const PRUNE_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;

export interface OutboxPrunerOptions {
  store: Store;
  retentionDays: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

export function createOutboxPruner({ store, retentionDays, clock, log }: OutboxPrunerOptions) {
  let running: Promise<number> | null = null;
  let nextRunAt = 0;
  let stopped = false;

  async function run(): Promise<number> {
    const cutoff = toStored(clock() - retentionDays * DAY_MS);
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !stopped; batch++) {
      const deleted = await pruneFinished(store.db, store.dialect, cutoff, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) break;
    }
    if (total > 0) log.info({ messages: total, retention_days: retentionDays }, 'webhook outbox pruned');
    return total;
  }

  /** Prunes now (or joins the run under way); resolves with the messages deleted. */
  function prune(): Promise<number> {
    if (!running) {
      nextRunAt = clock() + PRUNE_EVERY_MS;
      running = run()
        .catch((error: unknown) => {
          log.warn({ err: error }, 'webhook outbox could not be pruned; trying again later');
          return 0;
        })
        .finally(() => {
          running = null;
        });
    }
    return running;
  }

  return {
    prune,
    /** Called at every poll: prunes when a run is due. */
    pruneWhenDue(): void {
      if (!stopped && clock() >= nextRunAt) void prune();
    },
    async stop(): Promise<void> {
      stopped = true;
      await running;
    },
  };
}
