// Answers made once at write time: the fragments table, the store version behind ETags and change checks,
// the per-feed event index, and each community's longest event span; existing data is marked to be rendered once the
// store is migrated (pending-renders.ts).
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';
import { markPending } from './pending-renders.js';

export function fragmentsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  const bool = columnType(store, 'bool');
  const bytes = columnType(store, 'bytes');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('fragments')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        // version and refs before the body: a version check never reads the body's pages.
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('refs', 'text', (c) => c.notNull())
        .addColumn('body', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('fragments_pk', ['community_id', 'kind', 'id'])
        .execute();

      await db.schema
        .createTable('store_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await db
        .insertInto('store_state' as never)
        .values({ id: 1, version: 0 } as never)
        .execute();

      await db.schema
        .alterTable('communities')
        .addColumn('max_event_span_ms', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('event_feeds')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('feed_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('start_at', ts, (c) => c.notNull())
        .addColumn('occupied_until', ts, (c) => c.notNull())
        .addColumn('publish_to_site', bool, (c) => c.notNull())
        .addColumn('is_unlisted', bool, (c) => c.notNull())
        .addPrimaryKeyConstraint('event_feeds_pk', ['community_id', 'feed_id', 'event_id'])
        .addForeignKeyConstraint(
          'event_feeds_event',
          ['community_id', 'event_id'],
          'calendar_events',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      // The same shape as calendar_events_by_start, one feed at a time: pages and counts from the index alone.
      await db.schema
        .createIndex('event_feeds_by_start')
        .on('event_feeds')
        .columns([
          'community_id',
          'feed_id',
          'status',
          'start_at',
          'event_id',
          'occupied_until',
          'publish_to_site',
          'is_unlisted',
        ])
        .execute();
      await db.schema
        .createIndex('event_feeds_event')
        .on('event_feeds')
        .columns(['community_id', 'event_id'])
        .execute();

      // Every record's fragment, its events' feed rows and its community's longest event span.
      await markPending(db, ['profile', 'feed', 'tag', 'event', 'post']);
    },
  };
}
