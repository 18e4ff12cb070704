// The rules of listing a feed's posts (or Home's) and retrieving one post (answers assembled from
// fragments), and the loaders that assemble posts and comments as objects (for fragments and search).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { feedsByIds } from '../feeds/feeds.repository.js';
import type { HotStatements } from '../db/hot-statements.js';
import { readPostPage } from '../fragments/fragment-reads.js';
import type { FragmentReader } from '../fragments/fragment-reader.js';
import type { Answer } from '../fragments/splice.js';
import { offsetOf } from '../lib/pagination.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import type { Comment, FeedSummary, Post } from '../schemas/post.js';
import type { Profile } from '../schemas/profile.js';
import { toComment, toFeedSummary, toPost, type CommentRow, type PostRow } from './post.mapper.js';
import { parentPostsByIds } from './posts.repository.js';
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

export function createPostsService(reader: FragmentReader, hot: HotStatements, clock: () => number) {
  return {
    /** The post's answer when the answer cache holds it and can say so at once (see `earlyAnswer`). */
    peek: (communityId: string, id: string): Answer | undefined => reader.peek('post', communityId, id, clock()),

    async get(communityId: string, id: string): Promise<Answer> {
      const answer = await reader.one('post', communityId, id, clock());
      if (!answer) throw notFound(`Post '${id}'`);
      return answer;
    },

    /**
     * Totals come from the counts the import keeps on feeds, never from counting posts: the community's
     * feed directory, held in memory until the store changes.
     */
    async list(communityId: string, feedId: string, query: PostListQuery): Promise<Answer> {
      const directory = await reader.directory(communityId);
      let scope: { feedIds: string[] | null; total: number };
      if (feedId === HOME_FEED) scope = directory.home;
      else {
        // An archived or unlisted feed stays listable by its id, as in the hosted product; only Home hides it.
        const feed = directory.feeds.get(feedId);
        if (!feed) throw notFound(`Feed '${feedId}'`);
        scope = { feedIds: [feed.id], total: Number(feed.posts_count) };
      }
      const offset = offsetOf(query);
      const key = ['P', communityId, feedId, query.sort, query.page, query.per_page].join('|');
      // Past the end nothing is read: the kept total already says the page is empty.
      return reader.page(key, communityId, clock(), async () => ({
        facts: { page: query.page, per_page: query.per_page, total: scope.total },
        rows: offset < scope.total ? await readPostPage(hot, communityId, scope.feedIds, query.sort, query.per_page, offset) : [],
      }));
    },
  };
}
export type PostsService = ReturnType<typeof createPostsService>;
