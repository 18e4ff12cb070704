// Calendar subscriptions: a community's subscribe URLs (secrets kept only as hashes, like API tokens) and the
// tombstones of events that left the public calendar, so subscribed calendars see them as STATUS:CANCELLED.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function calendarFeedsMigration(store: StoreName) {
  const timestamp = columnType(store, 'timestamp');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('calendar_feeds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        // A Hearth feed whose events alone the subscription holds; null for every public event of the community.
        .addColumn('feed_id', 'text')
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', timestamp, (c) => c.notNull())
        .addColumn('revoked_at', timestamp)
        .execute();
      await db.schema.createIndex('calendar_feeds_community').on('calendar_feeds').columns(['community_id']).execute();

      await db.schema
        .createTable('calendar_tombstones')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('start_at', timestamp, (c) => c.notNull())
        .addColumn('end_at', timestamp)
        .addColumn('time_zone', 'text')
        // The feeds the event was published to when it left, comma-separated (a feed's subscription shows it too).
        .addColumn('feed_ids', 'text', (c) => c.notNull())
        // Above every SEQUENCE the event had while it was shown.
        .addColumn('sequence', 'bigint', (c) => c.notNull())
        .addColumn('removed_at', timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('calendar_tombstones_pk', ['community_id', 'event_id'])
        .execute();
      await db.schema
        .createIndex('calendar_tombstones_removed')
        .on('calendar_tombstones')
        .columns(['community_id', 'removed_at'])
        .execute();
    },
  };
}
