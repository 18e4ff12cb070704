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
