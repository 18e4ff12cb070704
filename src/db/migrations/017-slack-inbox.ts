// Slack's Events API, live (issue 38): the inbox of signed envelopes acknowledged and not yet applied (unique per
// community and event_id, so Slack's retries are no-ops), and each message's marks: the Slack ts of the version
// Hearth holds and whether it was deleted, so that an original or an edit arriving late never undoes what came after.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function slackInboxMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('slack_inbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        // The inner event's type (`message`, `reaction_added`…), and its subtype for messages: what `--failed` lists.
        .addColumn('event_type', 'text', (c) => c.notNull())
        // The envelope's bytes as Slack signed them.
        .addColumn('envelope', 'text', (c) => c.notNull())
        .addColumn('received_at', ts, (c) => c.notNull())
        // pending → done; or parked after the last attempt failed (re-queued by `hearth slack events retry`).
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        // A process applying the row holds it until then; a process killed mid-way lets it go at that time.
        .addColumn('claimed_until', ts)
        .addColumn('error', 'text')
        // What the application did: `applied`, or `ignored: <reason>` (an own echo, a channel not mirrored…).
        .addColumn('outcome', 'text')
        .addColumn('finished_at', ts)
        .addUniqueConstraint('slack_inbox_event_unique', ['community_id', 'event_id'])
        .execute();
      await db.schema.createIndex('slack_inbox_due').on('slack_inbox').columns(['state', 'next_attempt_at']).execute();
      await db.schema
        .createTable('slack_message_marks')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('chat_channel_id', 'text', (c) => c.notNull())
        .addColumn('message_ts', 'text', (c) => c.notNull())
        // The Slack ts of the version applied: the message's own ts, or its `edited.ts`.
        .addColumn('version_ts', 'text', (c) => c.notNull())
        // Set once deleted: the tombstone a late original or edit respects.
        .addColumn('deleted_ts', 'text')
        .addPrimaryKeyConstraint('slack_message_marks_pk', ['community_id', 'chat_channel_id', 'message_ts'])
        .execute();
    },
  };
}
