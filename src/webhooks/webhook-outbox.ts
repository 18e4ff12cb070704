// Writes webhook messages into the outbox inside the transaction of the change they announce: a rolled-back
// change leaves no message, a committed one always has its messages. The dispatcher sends them later.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { epochOfStored, toStored } from '../lib/timestamps.js';
import { subscribes, type WebhookEventType } from './webhook-types.js';
import { insertMessages, type WebhookRow } from './webhooks.repository.js';

/** How long failed attempts are retried before a message is marked failed. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;

export interface OutgoingEvent {
  type: WebhookEventType;
  data: unknown;
  /**
   * The whole body, sent as it is instead of Hearth's `{type, timestamp, data}`: for messages whose receivers expect
   * the hosted product's own payload (registrations). `data` is then unused.
   */
  body?: unknown;
}

/** `msg_` and 24 random base32-ish characters: the `webhook-id` a receiver deduplicates by. */
const newMessageId = (): string => `msg_${randomBytes(15).toString('base64url')}`;

/** True when some webhook of `hooks` wants one of `types`, so callers skip building payloads nobody gets. */
export const anyListens = (hooks: readonly WebhookRow[], types: readonly WebhookEventType[]): boolean =>
  hooks.some((hook) => types.some((type) => subscribes(hook.event_types, type)));

/**
 * One message per (event, subscribed webhook). `at` is the stored time of the change: the payload's
 * timestamp, and the moment the messages become due.
 */
export async function enqueue(
  db: Kysely<Database>,
  communityId: string,
  hooks: readonly WebhookRow[],
  events: readonly OutgoingEvent[],
  at: string,
): Promise<number> {
  const timestamp = `${at.slice(0, 10)}T${at.slice(11, 23)}Z`;
  const retryUntil = toStored(epochOfStored(at) + RETRY_WINDOW_MS);
  const rows = events.flatMap((event) => {
    const wanting = hooks.filter(
      (hook) => hook.community_id === communityId && subscribes(hook.event_types, event.type),
    );
    if (wanting.length === 0) return [];
    const payload = JSON.stringify(event.body ?? { type: event.type, timestamp, data: event.data });
    return wanting.map((hook) => ({
      id: newMessageId(),
      webhook_id: hook.id,
      community_id: communityId,
      event_type: event.type,
      payload,
      created_at: at,
      state: 'pending' as const,
      next_attempt_at: at,
      retry_until: retryUntil,
      claimed_until: null,
      finished_at: null,
    }));
  });
  for (let i = 0; i < rows.length; i += 500) await insertMessages(db, rows.slice(i, i + 500));
  return rows.length;
}
