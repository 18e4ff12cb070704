// What the hosted product's API shows beyond the spec: per-token field names, the whole hosted feed record,
// events' reminders, and the UTC offsets an event without a time zone was given in.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function hostedMigration(store: StoreName) {
  const json = columnType(store, 'json');
  const bool = columnType(store, 'bool');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds one column per statement.
      await db.schema
        .alterTable('tokens')
        .addColumn('field_names', 'text', (c) => c.notNull().defaultTo('spec'))
        .execute();

      const feedColumns: [string, 'text' | 'integer' | typeof json][] = [
        ['banner_file_id', 'text'],
        ['banner_file_url', 'text'],
        ['emoji_icon', 'text'],
        ['chat_channel_name', 'text'],
        ['chat_channel_purpose_chat_blocks', json],
        ['chat_channel_purpose_chat_blocks_references', json],
        ['chat_channel_topic_chat_blocks', json],
        ['chat_channel_topic_chat_blocks_references', json],
      ];
      for (const [name, type] of feedColumns) await db.schema.alterTable('feeds').addColumn(name, type).execute();
      await db.schema
        .alterTable('feeds')
        .addColumn('list_view_display_format', 'text', (c) => c.notNull().defaultTo('snippet'))
        .execute();
      await db.schema
        .alterTable('feeds')
        .addColumn('post_detail_display_format', 'text', (c) => c.notNull().defaultTo('discussion'))
        .execute();
      await db.schema
        .alterTable('feeds')
        .addColumn('chat_channel_num_members', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('feeds')
        .addColumn('show_in_navigation_menu', bool, (c) => c.notNull().defaultTo(true))
        .execute();
      await db.schema
        .alterTable('feeds')
        .addColumn('is_site_posting_enabled', bool, (c) => c.notNull().defaultTo(false))
        .execute();

      await db.schema.alterTable('calendar_events').addColumn('reminders_config', json).execute();
      // Minutes east of UTC written in start_date / end_date; used only when the event has no time zone.
      await db.schema.alterTable('calendar_events').addColumn('start_offset', 'integer').execute();
      await db.schema.alterTable('calendar_events').addColumn('end_offset', 'integer').execute();
    },
  };
}
