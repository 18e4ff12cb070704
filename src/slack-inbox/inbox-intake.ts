// The inbox's one way in: an `event_callback` envelope, from the request URL or a Socket Mode socket, checked for its
// event and written to slack_inbox once per event_id (a retry or a duplicate is a no-op); the applier is told.
import { randomBytes } from 'node:crypto';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { toStored } from '../lib/timestamps.js';
import { insertEnvelope } from './slack-inbox.repository.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the inbox lists an event as: its type, and a message's subtype after a colon. */
function typeOf(event: Record<string, unknown>): string {
  const type = typeof event.type === 'string' ? event.type.slice(0, 100) : 'unknown';
  return typeof event.subtype === 'string' ? `${type}:${event.subtype.slice(0, 100)}` : type;
}

/**
 * Writes `envelope` (an event_callback, `text` its JSON as received) for the community, once it has committed;
 * true when it was new. Throws `invalid_body` for an envelope without an event_id and an event.
 */
export type InboxIntake = (communityId: string, envelope: Record<string, unknown>, text: string) => Promise<boolean>;

export function createInboxIntake(store: Store, clock: Clock, onInserted: () => void): InboxIntake {
  // Inbox ids sort in the order this process received its envelopes (the clock, then a counter), so events
  // received together are applied in Slack's order; the random tail keeps two processes' ids apart.
  let received = 0;
  const inboxId = () =>
    `${clock().toString(36).padStart(9, '0')}-${(received++ % 36 ** 6).toString(36).padStart(6, '0')}-${randomBytes(3).toString('hex')}`;

  return async (communityId, envelope, text) => {
    const { event_id: eventId, event } = envelope;
    if (typeof eventId !== 'string' || eventId === '' || eventId.length > 200 || !isObject(event))
      throw new AppError('invalid_body', "An event_callback needs an 'event_id' and an 'event' object.");
    const inserted = await insertEnvelope(store.db, {
      id: inboxId(),
      community_id: communityId,
      event_id: eventId,
      event_type: typeOf(event),
      envelope: text,
      received_at: toStored(clock()),
    });
    if (inserted) onInserted();
    return inserted;
  };
}
