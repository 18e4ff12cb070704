// The rules of listing a feed's posts (or Home's), retrieving one post, and assembling posts and
// comments with their authors and feeds; search reuses the two loaders.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { feedListings, feedsByIds, findFeed } from '../feeds/feeds.repository.js';
import { offsetOf, toPage, type Page } from '../lib/pagination.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import type { Comment, FeedSummary, Post } from '../schemas/post.js';
import type { Profile } from '../schemas/profile.js';
import { toComment, toFeedSummary, toPost, type CommentRow, type PostRow } from './post.mapper.js';
import { findPost, pagePostIds, parentPostsByIds, postsByIds } from './posts.repository.js';
import type { PostListQuery } from './posts.schemas.js';

export const HOME_FEED = 'home';

/** Authors and feeds of a batch of rows: one query each, however many rows. */
async function authorsAndFeeds(
  db: Kysely<Database>,
  communityId: string,
  authorIds: (string | null)[],
  feedIds: string[],
): Promise<{ authorOf: (id: string | null) => Profile | null; feedOf: (id: string) => FeedSummary }> {
  const [profiles, feeds] = await Promise.all([
    profilesByIds(db, communityId, authorIds.filter((id): id is string => id !== null)),
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

/** Post rows of one community as API posts, in the given order. */
export async function loadPosts(db: Kysely<Database>, communityId: string, rows: PostRow[]): Promise<Post[]> {
  if (rows.length === 0) return [];
  const { authorOf, feedOf } = await authorsAndFeeds(
    db,
    communityId,
    rows.map((row) => row.author_profile_id),
    rows.map((row) => row.feed_id),
  );
  return rows.map((row) => toPost(row, authorOf(row.author_profile_id), feedOf(row.feed_id)));
}

/** Comment rows of one community as comment records (with parent post and its feed), in the given order. */
export async function loadComments(db: Kysely<Database>, communityId: string, rows: CommentRow[]): Promise<Comment[]> {
  if (rows.length === 0) return [];
  const parents = await parentPostsByIds(db, communityId, rows.map((row) => row.post_id));
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

export function createPostsService(db: Kysely<Database>) {
  /**
   * The feeds a feed id lists (null: every feed) and how many posts that is. Totals come from the
   * counts the import keeps on feeds, never from counting posts: one feed row for a feed, the
   * community's few feed rows for Home.
   */
  async function scopeOf(communityId: string, feedId: string): Promise<{ feedIds: string[] | null; total: number }> {
    if (feedId === HOME_FEED) {
      const feeds = await feedListings(db, communityId);
      const listed = feeds.filter((feed) => !feed.is_archived && !feed.is_unlisted);
      return {
        // Every post belongs to a feed of its community, so with nothing hidden no filter is needed.
        feedIds: listed.length === feeds.length ? null : listed.map((feed) => feed.id),
        total: listed.reduce((sum, feed) => sum + Number(feed.posts_count), 0),
      };
    }
    // An archived or unlisted feed stays listable by its id, as in the hosted product; only Home hides it.
    const feed = await findFeed(db, communityId, feedId);
    if (!feed) throw notFound(`Feed '${feedId}'`);
    return { feedIds: [feed.id], total: Number(feed.posts_count) };
  }

  return {
    async get(communityId: string, id: string): Promise<Post> {
      const row = await findPost(db, communityId, id);
      const [post] = row ? await loadPosts(db, communityId, [row]) : [];
      if (!post) throw notFound(`Post '${id}'`);
      return post;
    },

    async list(communityId: string, feedId: string, query: PostListQuery): Promise<Page<Post>> {
      const { feedIds, total } = await scopeOf(communityId, feedId);
      const offset = offsetOf(query);
      // Past the end nothing is read: the kept total already says the page is empty.
      const ids = offset < total ? await pagePostIds(db, communityId, feedIds, query.sort, query.per_page, offset) : [];
      return toPage(query, total, await loadPosts(db, communityId, await postsByIds(db, communityId, ids)));
    },
  };
}
export type PostsService = ReturnType<typeof createPostsService>;
