// SQL for webhooks: subscriptions, the outbox of messages, claiming due messages, and delivery attempts.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhookMessagesTable, WebhooksTable } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type MessageRow = Selectable<WebhookMessagesTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export async function insertWebhook(db: Kysely<Database>, row: Insertable<WebhooksTable>): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export function webhooksOf(db: Kysely<Database>, communityId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findWebhook(db: Kysely<Database>, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Removes a webhook with its messages and their attempts (the foreign keys cascade). */
export async function deleteWebhook(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertMessages(db: Kysely<Database>, rows: Insertable<WebhookMessagesTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_messages').values(rows).execute();
}

/**
 * Claims up to `limit` due messages until `claimUntil`, in one statement. PostgreSQL skips rows another
 * dispatcher has locked in its own claim; SQLite's single writer serialises claims by itself. Either way a
 * message is claimed by one dispatcher at a time, and a claim left by a killed process runs out.
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: StoreDialect,
  now: string,
  claimUntil: string,
  limit: number,
): Promise<MessageRow[]> {
  let due = db
    .selectFrom('webhook_messages')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  if (dialect.rowLocks) due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_messages')
    .set({ claimed_until: claimUntil })
    .where('id', 'in', due)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .execute();
}

export type Outcome =
  | { state: 'delivered'; finishedAt: string }
  | { state: 'failed'; finishedAt: string }
  | { state: 'pending'; nextAttemptAt: string };

/** Settles an attempt, unless the claim ran out and another dispatcher owns the message now. */
export async function settleMessage(
  db: Kysely<Database>,
  message: MessageRow,
  claim: string,
  outcome: Outcome,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_messages')
    .set({
      attempts: sql<number>`attempts + 1`,
      claimed_until: null,
      state: outcome.state,
      ...(outcome.state === 'pending'
        ? { next_attempt_at: outcome.nextAttemptAt }
        : { finished_at: outcome.finishedAt }),
    })
    .where('id', '=', message.id)
    .where('claimed_until', '=', claim)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a claim back without counting an attempt (a dispatcher stopping mid-delivery). */
export async function releaseMessage(db: Kysely<Database>, id: string, claim: string): Promise<void> {
  await db
    .updateTable('webhook_messages')
    .set({ claimed_until: null })
    .where('id', '=', id)
    .where('claimed_until', '=', claim)
    .execute();
}

/**
 * Deletes up to `limit` messages delivered or failed before `cutoff`, with their attempts (the foreign key
 * cascades); pending ones are never touched. A message's last attempt was due before it finished, so the range
 * of the (state, next_attempt_at) index below the cutoff holds the candidates, oldest first. PostgreSQL skips
 * rows another process is pruning at the same moment.
 */
export async function pruneFinished(
  db: Kysely<Database>,
  dialect: StoreDialect,
  cutoff: string,
  limit: number,
): Promise<number> {
  let deleted = 0;
  for (const state of ['delivered', 'failed'] as const) {
    let old = db
      .selectFrom('webhook_messages')
      .select('id')
      .where('state', '=', state)
      .where('next_attempt_at', '<', cutoff)
      .where('finished_at', '<', cutoff)
      .orderBy('next_attempt_at')
      .limit(limit - deleted);
    if (dialect.rowLocks) old = old.forUpdate().skipLocked();
    const result = await db.deleteFrom('webhook_messages').where('id', 'in', old).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (deleted >= limit) break;
  }
  return deleted;
}

export async function insertDelivery(db: Kysely<Database>, row: Insertable<WebhookDeliveriesTable>): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

export interface DeliveryListing extends DeliveryRow {
  event_type: string;
  state: string;
}

/** The newest attempts of a webhook first. */
export function deliveriesOf(db: Kysely<Database>, webhookId: string, limit: number): Promise<DeliveryListing[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .selectAll('d')
    .select(['m.event_type', 'm.state'])
    .where('d.webhook_id', '=', webhookId)
    .orderBy('d.started_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}

export function findDelivery(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Makes a message due again now (a replay): its id stays, so receivers can still deduplicate it. */
export async function requeueMessage(
  db: Kysely<Database>,
  id: string,
  now: string,
  retryUntil: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_messages')
    .set({ state: 'pending', next_attempt_at: now, retry_until: retryUntil, claimed_until: null, finished_at: null })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
