// What a sync asks of the store: the newest message it holds of a channel, so a later run fetches only what is newer.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { epochOfStored } from '../lib/timestamps.js';

/** The `ts` of the newest post of the feed (created_at holds the `ts` to the microsecond), or null when it has none. */
export async function newestTsOfFeed(
  db: Kysely<Database>,
  communityId: string,
  feedId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.max('created_at').as('newest'))
    .where('community_id', '=', communityId)
    .where('feed_id', '=', feedId)
    .executeTakeFirst();
  const newest = row?.newest;
  if (newest === null || newest === undefined) return null;
  const stored = String(newest);
  const seconds = Math.floor(epochOfStored(stored) / 1000);
  // The stored form is `YYYY-MM-DD HH:MM:SS.ffffff`: its six digits are the ts's microseconds.
  return `${seconds}.${stored.slice(20, 26).padEnd(6, '0')}`;
}
