// The one write path: every change runs in one transaction that also holds its audit record, the fragments it
// touched and its webhook messages; after the commit (and only then) this process's answers are dropped and its
// dispatcher is woken. Members, event writes and the import are functions on it; a new source of writes is too.
import type { Kysely } from 'kysely';
import { recordAudit, type AuditAction } from '../audit/audit.service.js';
import { queueEventAnnouncements, type EventChangeKind } from '../chat-announcements/announcement-queue.js';
import type { Database } from '../db/database.js';
import { inTransaction } from '../db/transaction.js';
import type { Touched } from '../fragments/touched.js';
import type { Clock } from '../lib/clock.js';
import { createSignal, type Signal } from '../lib/signal.js';
import { toStored } from '../lib/timestamps.js';
import { enqueue, type OutgoingEvent } from '../webhooks/webhook-outbox.js';
import { webhooksOf, type WebhookRow } from '../webhooks/webhooks.repository.js';
import type { Actor } from './actor.js';

/** What a change does besides its own rows, each inside its transaction. */
export interface Change {
  /** The stored time of the change (the clock read once): its rows', its audit record's and its messages'. */
  readonly at: string;
  readonly actor: Actor;
  /** Re-renders the fragments of the records the change touched (before reading them back). */
  refresh(touched: Touched): Promise<void>;
  audit(action: AuditAction, subjectId: string, detail: Record<string, unknown>): Promise<void>;
  /** The community's webhooks, read once per change; most changes then find that nobody listens. */
  listeners(): Promise<readonly WebhookRow[]>;
  /** Queues a message per (event, subscribed webhook); returns how many. */
  announce(events: readonly OutgoingEvent[]): Promise<number>;
  /**
   * Records what the event's Slack channels should show after this change (chat-announcements/): called after an
   * event's rows are written, or before they are deleted. Returns how many announcements have something to send.
   */
  announceInChat(eventId: string, kind: EventChangeKind): Promise<number>;
  /** The work found nothing to change (deactivating twice, say): it commits without an audit record. */
  unchanged(): void;
}

/** Told after every commit of this process's writes. */
export interface Committed {
  communityId: string;
  /** Webhook messages the change queued. */
  messages: number;
  /** Chat announcements the change gave something to send. */
  announcements: number;
}

/** Opens the transaction of a run: Kysely's by default; the import brings its own (journal, COPY). */
export type Transaction = <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

/** Renders the fragments a change touched, in its transaction (rendering/fragment-refresh.ts, handed in). */
export type Refresh = (trx: Kysely<Database>, communityId: string, touched: Touched) => Promise<void>;

export interface RunOptions {
  transaction?: Transaction;
}

export interface WriteRunner {
  run<T>(actor: Actor, work: (trx: Kysely<Database>, change: Change) => Promise<T>, options?: RunOptions): Promise<T>;
  /** Emitted after each commit: the answer cache drops what it holds, the dispatcher sends at once. */
  readonly committed: Signal<Committed>;
}

/** Raised when a change would commit without its audit record: a writer's mistake, rolled back. */
export class UnauditedWrite extends Error {}

export function createWriteRunner(db: Kysely<Database>, clock: Clock, refresh: Refresh): WriteRunner {
  const committed = createSignal<Committed>();
  return {
    committed,
    async run(actor, work, options = {}) {
      const at = toStored(clock());
      let messages = 0;
      let announcements = 0;
      const transaction = options.transaction ?? inTransaction;
      const result = await transaction(db, async (trx) => {
        let audited = 0;
        let unchanged = false;
        let hooks: Promise<WebhookRow[]> | null = null;
        const listeners = () => {
          hooks ??= webhooksOf(trx, actor.communityId);
          return hooks;
        };
        const change: Change = {
          at,
          actor,
          refresh: (touched) => refresh(trx, actor.communityId, touched),
          async audit(action, subjectId, detail) {
            audited++;
            await recordAudit(trx, {
              communityId: actor.communityId,
              tokenId: actor.tokenId,
              action,
              subjectId,
              detail,
              requestId: actor.requestId,
              at,
            });
          },
          listeners,
          async announce(events) {
            const found = await listeners();
            if (found.length === 0 || events.length === 0) return 0;
            const sent = await enqueue(trx, actor.communityId, found, events, at);
            messages += sent;
            return sent;
          },
          async announceInChat(eventId, kind) {
            const queued = await queueEventAnnouncements(trx, actor.communityId, eventId, kind, at);
            announcements += queued;
            return queued;
          },
          unchanged() {
            unchanged = true;
          },
        };
        const value = await work(trx, change);
        if (audited === 0 && !unchanged)
          throw new UnauditedWrite(
            `A change of community '${actor.communityId}' would commit without its audit record`,
          );
        return value;
      });
      committed.emit({ communityId: actor.communityId, messages, announcements });
      return result;
    },
  };
}
