// SQL of search beyond the index: the matched posts and comments, read by id in one query each.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { CommentRow, PostRow } from '../posts/post.mapper.js';

export async function postRowsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('posts').selectAll().where('community_id', '=', communityId).where('id', 'in', [...ids]).execute();
}

export async function commentRowsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<CommentRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('comments').selectAll().where('community_id', '=', communityId).where('id', 'in', [...ids]).execute();
}
