// Announcements of calendar events in their feeds' Slack channels (issue 38): one row per (event, channel), the
// message Slack should show and the one it shows, recorded in the transaction of the event's change and sent
// later by `hearth serve` (claimed, retried, parked after repeated failures). The row outlives its event, so a
// deletion can still edit the message it left.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function chatAnnouncementsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  const bool = columnType(store, 'bool');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chat_announcements')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('chat_channel_id', 'text', (c) => c.notNull())
        .addColumn('feed_id', 'text')
        // 'shown' (the event as it is), 'cancelled' (deleted) or 'removed' (unpublished, or no longer published there).
        .addColumn('wanted', 'text', (c) => c.notNull())
        // The message to show, JSON {text, blocks}; `version` counts its changes, `sent_version` is what Slack shows.
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('sent_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('message_ts', 'text')
        .addColumn('permalink', 'text')
        // True while a post may have reached Slack without its answer: the next attempt looks for it first.
        .addColumn('uncertain', bool, (c) => c.notNull())
        // 'pending' (something to send), 'done', or 'failed' (parked after repeated failures).
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        .addColumn('claimed_until', ts)
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_announcements_pk', ['community_id', 'event_id', 'chat_channel_id'])
        .execute();
      await db.schema
        .createIndex('chat_announcements_due')
        .on('chat_announcements')
        .columns(['state', 'next_attempt_at'])
        .execute();
    },
  };
}
