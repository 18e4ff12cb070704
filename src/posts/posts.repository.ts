// SQL for posts written as rows: posts by id (for their fragments) and what comments show of their parents. Pages
// are read in posts.reads.ts.
import type { Kysely, Selectable } from 'kysely';
import type { Database, PostsTable } from '../db/database.js';
import { inOrder } from '../lib/in-order.js';

export type PostRow = Selectable<PostsTable>;
/** What a comment shows of its parent post, plus the feed the comment therefore belongs to. */
export type ParentPostRow = Pick<PostRow, 'id' | 'created_at' | 'title' | 'slug' | 'feed_id'>;

/**
 * Posts by id, in the order of `ids`: primary-key probes. A separate query, without ORDER BY, on
 * purpose: as `id IN (page subquery) ORDER BY ...`, SQLite walks the sort index over every post of
 * the community and tests each against the page (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export async function postsByIds(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', 'in', ids)
    .execute();
  return inOrder(ids, rows);
}

/** What comments show of their parent posts, by id, as a map. */
export async function parentPostsByIds(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<Map<string, ParentPostRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('posts')
    .select(['id', 'created_at', 'title', 'slug', 'feed_id'])
    .where('community_id', '=', communityId)
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
