// Applies the Slack inbox (slack-inbox/): claims due rows for a lease (several processes each take others'), applies
// each event in its own change on the write runner (actor source `slack`), which settles its row in the same
// transaction, so that an event is applied once or not at all; a failed attempt is retried with backoff and parked
// after the last. The server runs it in the background, woken by its own inserts and polling for others';
// `hearth slack events apply` runs it once.
import type { FastifyBaseLogger } from 'fastify';
import { isRecord, stringOf, type JsonRecord } from '../content/loose-json.js';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import { toStored } from '../lib/timestamps.js';
import { claimDue, failClaimed, finishClaimed, type InboxRow } from '../slack-inbox/slack-inbox.repository.js';
import { sourceActor } from '../writes/actor.js';
import type { WriteRunner } from '../writes/write-runner.js';
import { NeedsThread, NotYet, threadKey, type Outcome } from './live-context.js';
import { applyEvent } from './live-events.js';
import { readThread } from './live-messages.js';
import { findConnection } from './slack-connections.repository.js';
import type { SlackApi } from './web-api.js';

/** Waits before the 2nd, 3rd… attempt; after the last, the row is parked. Seven attempts over about 16 minutes. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 60_000, 300_000, 600_000] as const;
/** How long a claim lasts: a process killed mid-way lets its rows go after this. */
const LEASE_MS = 30_000;
/** Rows claimed at a time. */
const BATCH = 100;

export interface ApplierOptions {
  store: Store;
  writes: WriteRunner;
  clock: Clock;
  /** The Web API with a community's bot token (to fetch a thread Hearth lacks). */
  apiFor(botToken: string): SlackApi;
  log?: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
  pollMs?: number;
}

export interface AppliedCounts {
  applied: number;
  ignored: number;
  retried: number;
  parked: number;
}

class LostClaim extends Error {}

interface Connection {
  channels: string[] | null;
  api: SlackApi | null;
}

export function createInboxApplier(options: ApplierOptions) {
  const { store, writes, clock, log } = options;
  // Connections are read once per claimed batch.
  let connections = new Map<string, Promise<Connection | null>>();

  function connectionOf(communityId: string): Promise<Connection | null> {
    let known = connections.get(communityId);
    if (!known) {
      known = findConnection(store.db, communityId).then((row) =>
        row
          ? {
              channels: row.channels === null ? null : (JSON.parse(row.channels) as string[]),
              api: options.apiFor(row.bot_token),
            }
          : null,
      );
      connections.set(communityId, known);
    }
    return known;
  }

  async function applyRow(row: InboxRow, claim: string, counts: AppliedCounts): Promise<void> {
    let envelope: JsonRecord;
    try {
      const parsed: unknown = JSON.parse(row.envelope);
      envelope = isRecord(parsed) ? parsed : {};
    } catch {
      envelope = {};
    }
    // Read before the change: on SQLite its transaction holds the store's one connection.
    const connection = await connectionOf(row.community_id);
    const threads = new Map<string, JsonRecord[]>();
    const attempt = () =>
      writes.run(sourceActor(row.community_id, 'slack'), async (trx, change) => {
        const result: Outcome = connection
          ? await applyEvent(
              {
                trx,
                change,
                communityId: row.community_id,
                channels: connection.channels,
                canFetch: connection.api !== null,
                threads,
                appId: stringOf(envelope.api_app_id) ?? null,
              },
              envelope,
            )
          : 'ignored: the community is not connected';
        if (!(await finishClaimed(trx, row.id, claim, result, change.at))) throw new LostClaim();
        if (result === 'applied') await change.audit('slack.event_applied', row.event_id, { type: row.event_type });
        else change.unchanged();
        return result;
      });
    try {
      let outcome: Outcome | null = null;
      // Each thread the event needs is read once, outside any transaction, then the event applied again.
      while (outcome === null) {
        try {
          outcome = await attempt();
        } catch (error) {
          if (!(error instanceof NeedsThread) || !connection?.api) throw error;
          const key = threadKey(error.channelId, error.threadTs);
          if (threads.has(key)) throw new NotYet(`the thread ${error.threadTs} of ${error.channelId} lacks its parent`);
          threads.set(key, await readThread(connection.api, error.channelId, error.threadTs));
        }
      }
      // A rename may change the channels the connection names: read it again for the next row.
      if (row.event_type === 'channel_rename') connections.delete(row.community_id);
      if (outcome === 'applied') counts.applied++;
      else counts.ignored++;
    } catch (error) {
      if (error instanceof LostClaim) return;
      const attempts = row.attempts + 1;
      const delay = RETRY_DELAYS_MS[attempts - 1];
      const message = error instanceof Error ? error.message : String(error);
      const now = clock();
      await failClaimed(
        store.db,
        row.id,
        claim,
        message.slice(0, 1000),
        delay === undefined ? null : toStored(now + delay),
        toStored(now),
      );
      if (delay === undefined) {
        counts.parked++;
        log?.warn({ id: row.id, event_id: row.event_id, type: row.event_type, err: message }, 'Slack event parked');
      } else {
        counts.retried++;
        if (!(error instanceof NotYet))
          log?.warn({ id: row.id, event_id: row.event_id, attempts, err: message }, 'Slack event failed; retrying');
      }
    }
  }

  /** Claims and applies due rows until none is left (one batch at a time); the counts of what it did. */
  async function applyDue(signal?: { stopped: boolean }): Promise<AppliedCounts> {
    const counts: AppliedCounts = { applied: 0, ignored: 0, retried: 0, parked: 0 };
    for (;;) {
      if (signal?.stopped) return counts;
      const now = clock();
      // Random microseconds: two processes claiming in the same millisecond never hold the same claim.
      const claim = toStored(now + LEASE_MS, Math.floor(Math.random() * 1000));
      const rows = await claimDue(store.db, store.dialect, toStored(now), claim, BATCH);
      if (rows.length === 0) return counts;
      connections = new Map();
      for (const row of rows) {
        if (signal?.stopped) break;
        await applyRow(row, claim, counts);
      }
    }
  }

  return { applyDue };
}

/** The server's background applier: woken by `wake`, polling every `pollMs` for what other processes received. */
export function startInboxApplier(options: ApplierOptions) {
  const applier = createInboxApplier(options);
  const state = { stopped: false };
  let running: Promise<void> | null = null;
  let again = false;

  function wake(): void {
    if (state.stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = applier
      .applyDue(state)
      .then(
        () => undefined,
        (error: unknown) =>
          options.log?.error({ err: error }, 'Slack inbox could not be applied; trying again at the next poll'),
      )
      .finally(() => {
        running = null;
        if (again) wake();
      });
  }

  const poll = setInterval(wake, options.pollMs ?? 1000);
  poll.unref();
  wake();
  return {
    wake,
    /** Stops claiming; the event being applied finishes (its claim otherwise runs out for another process). */
    async stop(): Promise<void> {
      state.stopped = true;
      clearInterval(poll);
      await running;
    },
  };
}
export type InboxApplier = ReturnType<typeof startInboxApplier>;
