// SQL for comments: rows by id.
import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database } from '../db/database.js';
import { inOrder } from '../lib/in-order.js';

export type CommentRow = Selectable<CommentsTable>;

/** Comments by id, in the order of `ids`: primary-key probes. */
export async function commentsByIds(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<CommentRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('comments')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', 'in', [...ids])
    .execute();
  return inOrder(ids, rows);
}
