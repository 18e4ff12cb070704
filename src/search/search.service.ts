// The rules of search (spec 4.5): the user's text parsed safely, the store's index asked, records loaded in rank order.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { offsetOf, toPage, type Page } from '../lib/pagination.js';
import { commentsByIds } from '../posts/comments.repository.js';
import { loadComments, loadPosts } from '../posts/post-loaders.js';
import { postsByIds } from '../posts/posts.repository.js';
import type { Comment, Post } from '../schemas/post.js';
import type { SearchIndex } from './search-index.js';
import { highlight } from './search-highlight.js';
import { isEmptyQuery, parseSearchQuery, type SearchQuery } from './search-query.js';
import type { CommentHit, PostHit, SearchParams } from './search.schemas.js';

const postText = (post: Post): string =>
  [post.title, post.body_plaintext].filter((text) => text !== null && text !== '').join('\n');
const commentText = (comment: Comment): string => comment.body_plaintext ?? '';

function withHighlight<T extends Post | Comment>(
  records: T[],
  query: SearchQuery,
  textOf: (record: T) => string,
): (T & { highlight: string })[] {
  return records.map((record) => ({ ...record, highlight: highlight(textOf(record), query) }));
}

export function createSearchService(db: Kysely<Database>, index: SearchIndex) {
  return {
    async search(communityId: string, params: SearchParams): Promise<Page<PostHit | CommentHit>> {
      const query = parseSearchQuery(params.q);
      // Nothing searchable (only punctuation, exclusions or operators): no match, and no query at all.
      if (isEmptyQuery(query)) return toPage(params, 0, []);
      const window = { limit: params.per_page, offset: offsetOf(params) };
      const hits = await index.search(db, params.type, communityId, query, window);
      if (params.type === 'post') {
        const posts = await loadPosts(db, communityId, await postsByIds(db, communityId, hits.ids));
        return toPage(params, hits.total, params.highlight ? withHighlight(posts, query, postText) : posts);
      }
      const comments = await loadComments(db, communityId, await commentsByIds(db, communityId, hits.ids));
      return toPage(params, hits.total, params.highlight ? withHighlight(comments, query, commentText) : comments);
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
