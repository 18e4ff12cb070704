// SQL of search beyond the index: the matched comments, read by id in one query (posts use postsByIds).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { CommentRow } from '../posts/post.mapper.js';

export async function commentRowsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<CommentRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('comments').selectAll().where('community_id', '=', communityId).where('id', 'in', [...ids]).execute();
}
