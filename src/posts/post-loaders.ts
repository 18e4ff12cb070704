// Comment rows assembled into comment records: authors, feeds and parent posts read in one query each, however
// many rows. Search loads comments through here, not through the posts service.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { feedsByIds } from '../feeds/feeds.repository.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import type { Comment, FeedSummary } from '../schemas/post.js';
import type { Profile } from '../schemas/profile.js';
import type { CommentRow } from './comments.repository.js';
import { toComment, toFeedSummary } from './post.mapper.js';
import { parentPostsByIds } from './posts.repository.js';

/** Authors and feeds of a batch of rows: one query each, however many rows. */
export async function authorsAndFeeds(
  db: Kysely<Database>,
  communityId: string,
  authorIds: (string | null)[],
  feedIds: string[],
): Promise<{ authorOf: (id: string | null) => Profile | null; feedOf: (id: string) => FeedSummary }> {
  const [profiles, feeds] = await Promise.all([
    profilesByIds(
      db,
      communityId,
      authorIds.filter((id): id is string => id !== null),
    ),
    feedsByIds(db, communityId, feedIds),
  ]);
  const feedsById = new Map(feeds.map((feed) => [feed.id, toFeedSummary(feed)]));
  return {
    authorOf: (id) => {
      const row = id === null ? undefined : profiles.get(id);
      return row ? toProfile(row) : null;
    },
    feedOf: (id) => {
      const feed = feedsById.get(id);
      // The store's foreign key makes this unreachable; failing loudly beats inventing a feed.
      if (!feed) throw new Error(`Feed '${id}' of community '${communityId}' is referenced but missing`);
      return feed;
    },
  };
}

/** Comment rows of one community as comment records (with parent post and its feed), in the given order. */
export async function loadComments(db: Kysely<Database>, communityId: string, rows: CommentRow[]): Promise<Comment[]> {
  if (rows.length === 0) return [];
  const parents = await parentPostsByIds(
    db,
    communityId,
    rows.map((row) => row.post_id),
  );
  const parentOf = (row: CommentRow) => {
    const parent = parents.get(row.post_id);
    if (!parent) throw new Error(`Post '${row.post_id}' of comment '${row.id}' is referenced but missing`);
    return parent;
  };
  const { authorOf, feedOf } = await authorsAndFeeds(
    db,
    communityId,
    rows.map((row) => row.author_profile_id),
    [...parents.values()].map((parent) => parent.feed_id),
  );
  return rows.map((row) => {
    const parent = parentOf(row);
    return toComment(row, authorOf(row.author_profile_id), feedOf(parent.feed_id), parent);
  });
}
