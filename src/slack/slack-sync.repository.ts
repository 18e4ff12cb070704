// What a sync asks of the store: the newest message it holds of a channel, so a later run fetches only what is newer
// (and reads again the threads that have replies newer than it).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { epochOfStored } from '../lib/timestamps.js';
import { compareTs } from './slack-time.js';

/** A stored `created_at` as the Slack `ts` it was made from (it holds the `ts` to the microsecond). */
function tsOfStored(newest: unknown): string | null {
  if (newest === null || newest === undefined) return null;
  const stored = String(newest);
  const seconds = Math.floor(epochOfStored(stored) / 1000);
  // The stored form is `YYYY-MM-DD HH:MM:SS.ffffff`: its six digits are the ts's microseconds.
  return `${seconds}.${stored.slice(20, 26).padEnd(6, '0')}`;
}

/** The `ts` of the newest post of the feed, or null when it has none. */
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
  return tsOfStored(row?.newest);
}

/** The `ts` of the newest message of the feed, its posts' thread replies included, or null when it has none. */
export async function newestTsOfChannel(
  db: Kysely<Database>,
  communityId: string,
  feedId: string,
): Promise<string | null> {
  const post = await newestTsOfFeed(db, communityId, feedId);
  const row = await db
    .selectFrom('comments')
    .innerJoin('posts', (join) =>
      join.onRef('posts.community_id', '=', 'comments.community_id').onRef('posts.id', '=', 'comments.post_id'),
    )
    .select((eb) => eb.fn.max('comments.created_at').as('newest'))
    .where('comments.community_id', '=', communityId)
    .where('posts.feed_id', '=', feedId)
    .executeTakeFirst();
  const reply = tsOfStored(row?.newest);
  if (post === null || reply === null) return post ?? reply;
  return compareTs(reply, post) > 0 ? reply : post;
}
