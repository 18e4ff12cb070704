// SQL for feeds.
import type { Kysely, Selectable } from 'kysely';
import type { Database, FeedsTable } from '../db/database.js';

export type FeedRow = Selectable<FeedsTable>;

export function findFeed(db: Kysely<Database>, communityId: string, id: string): Promise<FeedRow | undefined> {
  return db.selectFrom('feeds').selectAll().where('community_id', '=', communityId).where('id', '=', id).executeTakeFirst();
}

export function feedsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<FeedRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return Promise.resolve([]);
  return db.selectFrom('feeds').selectAll().where('community_id', '=', communityId).where('id', 'in', unique).execute();
}

/** Every feed of the community with its flags and kept post count: a few rows, never the posts themselves. */
export function feedListings(
  db: Kysely<Database>,
  communityId: string,
): Promise<Pick<FeedRow, 'id' | 'is_archived' | 'is_unlisted' | 'posts_count'>[]> {
  return db
    .selectFrom('feeds')
    .select(['id', 'is_archived', 'is_unlisted', 'posts_count'])
    .where('community_id', '=', communityId)
    .execute();
}
