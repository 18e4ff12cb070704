// Registrations for calendar events: one row per (event, member), and the flag that makes an event's
// `attendees_count` follow them; an index to find an event by the partner platform's id (the Luma pull's key).
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function registrationsMigration(store: StoreName) {
  const bool = columnType(store, 'bool');
  const timestamp = columnType(store, 'timestamp');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('event_registrations')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('profile_id', 'text', (c) => c.notNull())
        .addColumn('registered_at', timestamp, (c) => c.notNull())
        // One registration per member and event: parallel registrations of one e-mail make one row.
        .addPrimaryKeyConstraint('event_registrations_pk', ['community_id', 'event_id', 'profile_id'])
        .addForeignKeyConstraint(
          'event_registrations_event',
          ['community_id', 'event_id'],
          'calendar_events',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .addForeignKeyConstraint(
          'event_registrations_profile',
          ['community_id', 'profile_id'],
          'profiles',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      // The list's order: registration time, then member id.
      await db.schema
        .createIndex('event_registrations_order')
        .on('event_registrations')
        .columns(['community_id', 'event_id', 'registered_at', 'profile_id'])
        .execute();
      // False until the event's first registration through the API: until then `attendees_count` is the imported one.
      await db.schema
        .alterTable('calendar_events')
        .addColumn('attendees_from_registrations', bool, (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema
        .createIndex('calendar_events_partner_event')
        .on('calendar_events')
        .columns(['community_id', 'partner_event_id'])
        .execute();
    },
  };
}
