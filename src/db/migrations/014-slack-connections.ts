// A community's connection to its Slack workspace (issue 37): the bot token and signing secret the sync and the
// live mirror use, the channels to mirror, when it was last synced. One row per community; secrets kept as given,
// read by the command line only (no route reads this table, and the export does not write it).
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function slackConnectionsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('slack_connections')
        .addColumn('community_id', 'text', (c) => c.primaryKey().references('communities.id').onDelete('cascade'))
        .addColumn('bot_token', 'text', (c) => c.notNull())
        .addColumn('signing_secret', 'text')
        // A JSON array of channel names or ids; null mirrors every public channel.
        .addColumn('channels', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('synced_at', ts)
        .execute();
    },
  };
}
