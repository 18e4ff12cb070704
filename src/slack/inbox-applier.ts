// Applies the Slack inbox (slack-inbox/): claims due rows for a lease (several processes each take others'), applies
// a community's events in one change on the write runner (actor source `slack`), each in a savepoint that also
// settles its row, so that an event is applied once or not at all and one that fails is retried alone; a failed
// attempt is retried with backoff and parked after the last. Applied rows are deleted after KEEP_DONE_MS, looked for
// at most once a minute. The server runs it in the background, woken by its own inserts and polling for others', in
// short changes that let acknowledgements in; `hearth slack events apply` runs it once.
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Kysely } from 'kysely';
import { isRecord, stringOf, type JsonRecord } from '../content/loose-json.js';
import type { Database } from '../db/database.js';
import type { Store } from '../db/store.js';
import type { Touched } from '../fragments/touched.js';
import type { Clock } from '../lib/clock.js';
import { toStored } from '../lib/timestamps.js';
import {
  claimDue,
  failClaimed,
  finishClaimed,
  pruneDone,
  type InboxRow,
} from '../slack-inbox/slack-inbox.repository.js';
import { sourceActor } from '../writes/actor.js';
import type { Change, WriteRunner } from '../writes/write-runner.js';
import { NeedsThread, NotYet, newChangeReads, threadKey, type ChangeReads, type Outcome } from './live-context.js';
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
  /** How long one change goes on taking events (CHANGE_MS by default). */
  changeMs?: number;
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
  domain: string | null;
}

/**
 * How long one change goes on taking events by default: it commits once this much time has passed, so that on SQLite
 * (one connection, one event loop) an acknowledgement waits at most about this long behind the applier.
 */
const CHANGE_MS = 20;
/** Applied rows kept this long, then deleted: Slack retries an event for about an hour; a retry finds it held. */
export const KEEP_DONE_MS = 24 * 3_600_000;
/** Done rows deleted per pass of the loop at most, so that pruning a long backlog never holds the store for long. */
const PRUNE_BATCH = 500;
/** How often applied rows are looked for at most; at once again after a pass that deleted a full batch. */
export const PRUNE_EVERY_MS = 60_000;
/**
 * How long one change goes on taking events in a serving process: short, since the acknowledgements it holds up
 * (on SQLite, the store's one connection; on either, the event loop, which a change's statements keep to
 * themselves between turns) wait at most about this long.
 */
const SERVING_CHANGE_MS = 5;
/** A serving process's applier starts this long after the first insert that woke it, taking a burst together. */
const GATHER_MS = 20;

// The same on both stores, and run twice per event: never built again.
const savepoint = CompiledQuery.raw('savepoint slack_event');
const release = CompiledQuery.raw('release savepoint slack_event');
const rollback = CompiledQuery.raw('rollback to savepoint slack_event');

const parseEnvelope = (row: InboxRow): JsonRecord => {
  try {
    const parsed: unknown = JSON.parse(row.envelope);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
};

/** The fragments and deferred work one event names, kept apart until it is known to stay (its savepoint released). */
class Staged {
  readonly touched = {
    profiles: new Set<string>(),
    feeds: new Set<string>(),
    tags: new Set<string>(),
    posts: new Set<string>(),
    events: new Set<string>(),
  };
  readonly later = new Map<string, () => Promise<void>>();

  add(touched: Touched): void {
    for (const kind of ['profiles', 'feeds', 'tags', 'posts', 'events'] as const)
      for (const id of touched[kind] ?? []) this.touched[kind].add(id);
  }

  merge(other: Staged): void {
    this.add(other.touched);
    for (const [key, work] of other.later) if (!this.later.has(key)) this.later.set(key, work);
  }

  /** The deferred work, then one refresh of everything named. */
  async finish(change: Change): Promise<void> {
    for (const work of this.later.values()) await work();
    await change.refresh(this.touched);
  }
}

export function createInboxApplier(options: ApplierOptions) {
  const { store, writes, clock, log } = options;
  const changeMs = options.changeMs ?? CHANGE_MS;
  // Connections are read once per claimed batch (again after a rename, which may change the channels named).
  let connections = new Map<string, Promise<Connection | null>>();
  // The clock time from which old applied rows may be looked for again.
  let pruneFrom = Number.NEGATIVE_INFINITY;

  function connectionOf(communityId: string): Promise<Connection | null> {
    let known = connections.get(communityId);
    if (!known) {
      known = findConnection(store.db, communityId).then((row) =>
        row
          ? {
              channels: row.channels === null ? null : (JSON.parse(row.channels) as string[]),
              api: options.apiFor(row.bot_token),
              domain: row.workspace_domain,
            }
          : null,
      );
      connections.set(communityId, known);
    }
    return known;
  }

  /** One event inside a change: applied, its row settled and audited; what it named staged in `staged`. */
  async function applyOne(
    trx: Kysely<Database>,
    change: Change,
    row: InboxRow,
    claim: string,
    connection: Connection | null,
    threads: ReadonlyMap<string, JsonRecord[]>,
    staged: Staged,
    reads: ChangeReads,
  ): Promise<Outcome> {
    const envelope = parseEnvelope(row);
    const result: Outcome = connection
      ? await applyEvent(
          {
            trx,
            change: { ...change, refresh: async (touched) => staged.add(touched) },
            communityId: row.community_id,
            channels: connection.channels,
            canFetch: connection.api !== null,
            domain: connection.domain,
            threads,
            reads,
            appId: stringOf(envelope.api_app_id) ?? null,
            later: (key, work) => {
              if (!staged.later.has(key)) staged.later.set(key, work);
            },
          },
          envelope,
        )
      : 'ignored: the community is not connected';
    if (!(await finishClaimed(trx, row.id, claim, result, change.at))) throw new LostClaim();
    if (result === 'applied') await change.audit('slack.event_applied', row.event_id, { type: row.event_type });
    return result;
  }

  function count(counts: AppliedCounts, outcome: Outcome): void {
    if (outcome === 'applied') counts.applied++;
    else counts.ignored++;
  }

  /** A failed attempt settled (in `db`: the batch's transaction, or the store): retried later, or parked. */
  async function fail(db: Kysely<Database>, row: InboxRow, claim: string, error: unknown, counts: AppliedCounts) {
    const attempts = row.attempts + 1;
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const message = error instanceof Error ? error.message : String(error);
    const now = clock();
    await failClaimed(
      db,
      row.id,
      claim,
      message.slice(0, 1000),
      delay === undefined ? null : toStored(now + delay),
      toStored(now),
    );
    return () => {
      if (delay === undefined) {
        counts.parked++;
        log?.warn({ id: row.id, event_id: row.event_id, type: row.event_type, err: message }, 'Slack event parked');
      } else {
        counts.retried++;
        if (!(error instanceof NotYet))
          log?.warn({ id: row.id, event_id: row.event_id, attempts, err: message }, 'Slack event failed; retrying');
      }
    };
  }

  /** One row in a change of its own, reading through the Web API first each thread it needs. */
  async function applyAlone(row: InboxRow, claim: string, counts: AppliedCounts): Promise<void> {
    // Read before the change: on SQLite its transaction holds the store's one connection.
    const connection = await connectionOf(row.community_id);
    const threads = new Map<string, JsonRecord[]>();
    const attempt = () =>
      writes.run(sourceActor(row.community_id, 'slack'), async (trx, change) => {
        const staged = new Staged();
        const outcome = await applyOne(trx, change, row, claim, connection, threads, staged, newChangeReads());
        await staged.finish(change);
        if (outcome !== 'applied') change.unchanged();
        return outcome;
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
      if (row.event_type === 'channel_rename') connections.delete(row.community_id);
      count(counts, outcome);
    } catch (error) {
      if (error instanceof LostClaim) return;
      (await fail(store.db, row, claim, error, counts))();
    }
  }

  /**
   * Rows of one community, from the first, in one change, each in a savepoint of its own: an event that fails is
   * rolled back to its savepoint and settled as failed, the others stay. The change ends after `changeMs`, at
   * a rename (the connection's channels are read again) and before an event that needs a thread read (applied alone
   * next). How many rows it settled; 0 when the change failed as a whole (its rows are then applied one by one).
   */
  async function applyGroup(rows: readonly InboxRow[], claim: string, counts: AppliedCounts): Promise<number> {
    const first = rows[0];
    if (!first) return 0;
    const connection = await connectionOf(first.community_id);
    const started = performance.now();
    const outcomes: Outcome[] = [];
    const told: (() => void)[] = [];
    let settled = 0;
    try {
      await writes.run(sourceActor(first.community_id, 'slack'), async (trx, change) => {
        const all = new Staged();
        const reads = newChangeReads();
        for (const row of rows) {
          if (row.community_id !== first.community_id || performance.now() - started > changeMs) break;
          const staged = new Staged();
          await trx.executeQuery(savepoint);
          try {
            outcomes.push(await applyOne(trx, change, row, claim, connection, new Map(), staged, reads));
            await trx.executeQuery(release);
            all.merge(staged);
          } catch (error) {
            await trx.executeQuery(rollback);
            await trx.executeQuery(release);
            // What the event read may have been its own writes, now undone.
            reads.feeds.clear();
            reads.profiles.clear();
            if (error instanceof NeedsThread && connection?.api) break;
            if (!(error instanceof LostClaim)) told.push(await fail(trx, row, claim, error, counts));
          }
          settled++;
          if (row.event_type === 'channel_rename') break;
        }
        await all.finish(change);
        if (!outcomes.includes('applied')) change.unchanged();
      });
    } catch (error) {
      log?.warn(
        { err: error, events: settled },
        'Slack events could not be applied together; applying them one by one',
      );
      return 0;
    }
    for (const outcome of outcomes) count(counts, outcome);
    for (const tell of told) tell();
    if (rows.slice(0, settled).some((row) => row.event_type === 'channel_rename'))
      connections.delete(first.community_id);
    return settled;
  }

  /** Claims and applies due rows until none is left (one batch at a time), pruning old applied rows as it goes. */
  async function applyDue(signal?: { stopped: boolean }): Promise<AppliedCounts> {
    const counts: AppliedCounts = { applied: 0, ignored: 0, retried: 0, parked: 0 };
    if (clock() >= pruneFrom) {
      const deleted = await pruneDone(store.db, toStored(clock() - KEEP_DONE_MS), PRUNE_BATCH);
      pruneFrom = deleted >= PRUNE_BATCH ? clock() : clock() + PRUNE_EVERY_MS;
    }
    for (;;) {
      if (signal?.stopped) return counts;
      const now = clock();
      // Random microseconds: two processes claiming in the same millisecond never hold the same claim.
      const claim = toStored(now + LEASE_MS, Math.floor(Math.random() * 1000));
      const rows = await claimDue(store.db, store.dialect, toStored(now), claim, BATCH);
      if (rows.length === 0) return counts;
      connections = new Map();
      let next = 0;
      while (next < rows.length && !signal?.stopped) {
        const settled = await applyGroup(rows.slice(next), claim, counts);
        const row = rows[next + settled];
        // A change that failed as a whole, or an event that needs a thread: the next row alone.
        if (settled === 0 && row) {
          await applyAlone(row, claim, counts);
          next++;
        } else next += settled;
        // Acknowledgements waiting on the event loop (and on SQLite's one connection) go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  return { applyDue };
}

/** The server's background applier: woken by `wake`, polling every `pollMs` for what other processes received. */
export function startInboxApplier(options: ApplierOptions & { gatherMs?: number }) {
  const applier = createInboxApplier({ ...options, changeMs: options.changeMs ?? SERVING_CHANGE_MS });
  const gatherMs = options.gatherMs ?? GATHER_MS;
  const state = { stopped: false };
  let running: Promise<void> | null = null;
  let gathering: NodeJS.Timeout | null = null;
  let again = false;

  /** Applies what is due after `gatherMs`, or once the pass under way ends. */
  function wake(): void {
    if (state.stopped) return;
    if (running) {
      again = true;
      return;
    }
    gathering ??= setTimeout(run, gatherMs);
  }

  function run(): void {
    gathering = null;
    if (state.stopped) return;
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
  run();
  return {
    wake,
    /** Stops claiming; the event being applied finishes (its claim otherwise runs out for another process). */
    async stop(): Promise<void> {
      state.stopped = true;
      clearInterval(poll);
      if (gathering) clearTimeout(gathering);
      await running;
    },
  };
}
export type InboxApplier = ReturnType<typeof startInboxApplier>;
