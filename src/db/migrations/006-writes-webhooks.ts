// Writing through the API and webhooks: deactivated profiles (their fragments rendered again), webhook subscriptions, the outbox of messages
// (written in the transaction of the change they announce) and the log of delivery attempts.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';
import { markPending } from './pending-renders.js';

export function writesWebhooksMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  const bool = columnType(store, 'bool');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('profiles').addColumn('deactivated_at', ts).execute();

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        // Comma-separated patterns: `calendar_event.created`, `member.*`, `*`.
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_community').on('webhooks').columns(['community_id']).execute();

      await db.schema
        .createTable('webhook_messages')
        // The `webhook-id` header: the same on every attempt, so receivers can deduplicate.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        // The exact body that is signed and sent.
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        // pending, delivered or failed.
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        // Failed attempts are retried until then (24 hours after the change, or after a replay).
        .addColumn('retry_until', ts, (c) => c.notNull())
        // A dispatcher owns a claimed message until then; a killed one's claims simply run out.
        .addColumn('claimed_until', ts)
        .addColumn('finished_at', ts)
        .execute();
      await db.schema
        .createIndex('webhook_messages_due')
        .on('webhook_messages')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_messages_webhook')
        .on('webhook_messages')
        .columns(['webhook_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
        .addColumn('webhook_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('ok', bool, (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_webhook')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'started_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_message')
        .on('webhook_deliveries')
        .columns(['message_id'])
        .execute();

      // Profiles now answer `is_deactivated`: their fragments are to be rendered again (answers embedding them follow).
      await markPending(db, ['profile']);
    },
  };
}
