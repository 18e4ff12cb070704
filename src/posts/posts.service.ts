// The rules of listing a feed's posts (or Home's) and retrieving one post (answers assembled from fragments).
import { notFound } from '../errors.js';
import type { HotStatements } from '../db/hot-statements.js';
import type { FragmentReader } from '../fragments/fragment-reader.js';
import type { Answer } from '../fragments/splice.js';
import { offsetOf } from '../lib/pagination.js';
import { readPostPage } from './posts.reads.js';
import type { PostListQuery } from './posts.schemas.js';

export const HOME_FEED = 'home';

export function createPostsService(reader: FragmentReader, hot: HotStatements, clock: () => number) {
  return {
    /** The post's answer when the answer cache holds it, once a change check in flight has answered (`earlyAnswer`). */
    peek: (communityId: string, id: string): Answer | undefined | Promise<Answer | undefined> =>
      reader.peek('post', communityId, id, clock()),

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
        rows:
          offset < scope.total
            ? await readPostPage(hot, communityId, scope.feedIds, query.sort, query.per_page, offset)
            : [],
      }));
    },
  };
}
export type PostsService = ReturnType<typeof createPostsService>;
