// SQL for idempotency keys. Each statement is a single-row compare-and-set, so races are decided by the database.
import type { Kysely, Selectable } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../db/database.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface ClaimRow {
  community_id: string;
  key: string;
  request_hash: string;
  created_at: string;
  expires_at: string;
}

/** Inserts an in-flight claim; false when the key already has a row (the primary key decides). */
export async function insertClaim(db: Kysely<Database>, claim: ClaimRow): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...claim, state: 'in_flight', response_status: null, response_body: null })
    .onConflict((oc) => oc.columns(['community_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findKey(db: Kysely<Database>, communityId: string, key: string): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Replaces a row seen as expired or abandoned with a new claim, unless someone else changed it first. */
export async function takeOverKey(db: Kysely<Database>, seen: IdempotencyRow, claim: ClaimRow): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      request_hash: claim.request_hash,
      state: 'in_flight',
      response_status: null,
      response_body: null,
      created_at: claim.created_at,
      expires_at: claim.expires_at,
    })
    .where('community_id', '=', seen.community_id)
    .where('key', '=', seen.key)
    .where('state', '=', seen.state)
    .where('created_at', '=', seen.created_at)
    .where('expires_at', '=', seen.expires_at)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Stores the response of a claim that is still ours. */
export async function completeClaim(
  db: Kysely<Database>,
  claim: ClaimRow,
  status: number,
  body: string,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: status, response_body: body })
    .where('community_id', '=', claim.community_id)
    .where('key', '=', claim.key)
    .where('state', '=', 'in_flight')
    .where('created_at', '=', claim.created_at)
    .execute();
}

/** Deletes a claim that is still ours, so that a retry of a failed request can proceed. */
export async function releaseClaim(db: Kysely<Database>, claim: ClaimRow): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('community_id', '=', claim.community_id)
    .where('key', '=', claim.key)
    .where('state', '=', 'in_flight')
    .where('created_at', '=', claim.created_at)
    .execute();
}

export async function purgeExpiredKeys(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
}
