// SQL of calendar subscribe URLs: only the secret's hash is stored, as with API tokens.
import type { Kysely } from 'kysely';
import type { CalendarFeedsTable, Database } from '../db/database.js';

export type CalendarFeedRow = CalendarFeedsTable;

export async function insertCalendarFeed(db: Kysely<Database>, row: CalendarFeedRow): Promise<void> {
  await db.insertInto('calendar_feeds').values(row).execute();
}

/** The live subscription a secret's hash names (a revoked one is none). */
export function findLiveCalendarFeed(db: Kysely<Database>, secretHash: string) {
  return db
    .selectFrom('calendar_feeds')
    .select(['id', 'community_id', 'feed_id'])
    .where('secret_hash', '=', secretHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export function listCalendarFeeds(db: Kysely<Database>, communityId: string) {
  return db
    .selectFrom('calendar_feeds')
    .select(['id', 'feed_id', 'created_at', 'revoked_at'])
    .where('community_id', '=', communityId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Revokes a live subscription of the community; false when there is none with that id. */
export async function revokeCalendarFeed(
  db: Kysely<Database>,
  communityId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('calendar_feeds')
    .set({ revoked_at: at })
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
