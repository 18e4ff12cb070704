// The posts' read SQL, run on the hot statements: one page of a feed (or of Home) in a total order, as its
// fragments, and the text search highlights.
import { placeholders, type HotStatements } from '../db/hot-statements.js';
import { pageOfFragments, type FragmentRead } from '../fragments/fragment-reads.js';
import type { PostSort } from './post-sorts.js';

// Each order walks one index of migration 001 (with or without feed_id) forwards or backwards, id breaking ties.
const postOrders: Record<PostSort, { column: string; direction: 'asc' | 'desc' }> = {
  newest: { column: 'created_at', direction: 'desc' },
  oldest: { column: 'created_at', direction: 'asc' },
  'most-recent-activity': { column: 'latest_activity_at', direction: 'desc' },
};

/**
 * One page of posts of `feedIds` (null: every feed of the community), as their fragments in page order.
 * The inner select names only indexed columns, so a deep OFFSET walks index entries and never reads the
 * rows it skips; one feed walks its (community_id, feed_id, sort key, id) index, index-only.
 *
 * Home with a feed hidden walks (community_id, sort key, id, feed_id) in order and filters on the
 * feed_id the index carries, so it stays index-only; `feed_id IN (listed)` checks a short constant
 * list in memory. A join with feeds would add a feeds probe per entry, and PostgreSQL
 * plans it as "every listed feed's posts, then sort", slower on a deep page than the list
 * (measured: bench/analysis.md, 'Figures behind the code's choices'). A UNION of per-feed index walks
 * merges on SQLite but sorts on PostgreSQL. With no feed hidden, the usual case, there is no filter and the walk
 * is index-only.
 */
export function readPostPage(
  hot: HotStatements,
  communityId: string,
  feedIds: readonly string[] | null,
  sort: PostSort,
  limit: number,
  offset: number,
) {
  const { column, direction } = postOrders[sort];
  const feedFilter = feedIds ? ` and feed_id in (${placeholders(feedIds.length)})` : '';
  const inner =
    `select community_id, id, ${column} as k from posts where community_id = ?${feedFilter} ` +
    `order by ${column} ${direction}, id ${direction} limit ? offset ?`;
  return hot.all<FragmentRead>(pageOfFragments(inner, 'post', direction), [
    communityId,
    ...(feedIds ?? []),
    limit,
    offset,
  ]);
}

/** What search highlights of posts: their title and plain text, by id, in no particular order. */
export interface PostText {
  id: string;
  title: string | null;
  body_plaintext: string | null;
}

export function readPostTexts(hot: HotStatements, communityId: string, ids: readonly string[]) {
  const sql = `select id, title, body_plaintext from posts where community_id = ? and id in (${placeholders(ids.length)})`;
  return hot.all<PostText>(sql, [communityId, ...ids]);
}
