// The rules of search (spec 4.5): the user's text parsed safely, the store's index asked, records loaded in rank order.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { HotStatements } from '../db/hot-statements.js';
import type { FragmentReader } from '../fragments/fragment-reader.js';
import { readFragments, type FragmentRead } from '../fragments/fragment-reads.js';
import type { Answer } from '../fragments/splice.js';
import { offsetOf, toPage, type Page } from '../lib/pagination.js';
import { commentsByIds } from '../posts/comments.repository.js';
import { loadComments } from '../posts/post-loaders.js';
import { readPostTexts, type PostText } from '../posts/posts.reads.js';
import type { Comment } from '../schemas/post.js';
import type { SearchIndex } from './search-index.js';
import { highlight } from './search-highlight.js';
import { isEmptyQuery, parseSearchQuery, type SearchQuery } from './search-query.js';
import type { CommentHit, SearchParams } from './search.schemas.js';

/** Posts leave as their fragments (the bytes GET /posts/{id} sends); comments, which have none, as records. */
export type SearchResult = { answer: Answer } | { page: Page<CommentHit> };

const postText = (post: PostText): string =>
  [post.title, post.body_plaintext].filter((text) => text !== null && text !== '').join('\n');
const commentText = (comment: Comment): string => comment.body_plaintext ?? '';

/** The fragments of `ids` in their order; a post deleted since it was ranked is left out, as a page by id leaves it out. */
async function postFragments(hot: HotStatements, communityId: string, ids: readonly string[]): Promise<FragmentRead[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await readFragments(hot, communityId, 'post', ids)).map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is FragmentRead => row !== undefined);
}

/** `,"highlight":"…"` for each row, from the post's title and plain text. */
async function postHighlights(
  hot: HotStatements,
  communityId: string,
  rows: readonly FragmentRead[],
  query: SearchQuery,
): Promise<Buffer[]> {
  if (rows.length === 0) return [];
  const texts = await readPostTexts(
    hot,
    communityId,
    rows.map((row) => row.id),
  );
  const byId = new Map(texts.map((text) => [text.id, text]));
  return rows.map((row) => {
    const text = byId.get(row.id);
    return Buffer.from(`,"highlight":${JSON.stringify(text ? highlight(postText(text), query) : '')}`);
  });
}

export function createSearchService(
  db: Kysely<Database>,
  hot: HotStatements,
  reader: FragmentReader,
  index: SearchIndex,
  clock: () => number,
) {
  return {
    async search(communityId: string, params: SearchParams): Promise<SearchResult> {
      const query = parseSearchQuery(params.q);
      const window = { limit: params.per_page, offset: offsetOf(params) };
      // Nothing searchable (only punctuation, exclusions or operators): no match, and no query at all.
      const hitsOf = async () =>
        isEmptyQuery(query) ? { ids: [], total: 0 } : await index.search(db, params.type, communityId, query, window);
      if (params.type === 'post') {
        // A page of posts is kept in the answer cache until the next change: a search box's repeated queries are
        // answered from memory, and any write (a new post, an edit) makes the next search read the index again.
        const key = `S|${communityId}|${params.page}|${params.per_page}|${params.highlight ? 1 : 0}|${params.q}`;
        const answer = await reader.kept(key, clock(), async () => {
          const hits = await hitsOf();
          const rows = await postFragments(hot, communityId, hits.ids);
          const extras = params.highlight ? await postHighlights(hot, communityId, rows, query) : null;
          const facts = { page: params.page, per_page: params.per_page, total: hits.total };
          return reader.assemble(communityId, facts, rows, extras);
        });
        return { answer };
      }
      const hits = await hitsOf();
      const comments = await loadComments(db, communityId, await commentsByIds(db, communityId, hits.ids));
      const records = params.highlight
        ? comments.map((comment) => ({ ...comment, highlight: highlight(commentText(comment), query) }))
        : comments;
      return { page: toPage(params, hits.total, records) };
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
