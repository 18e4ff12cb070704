// Content pages: feeds, a feed's posts (or Home's), a post as the API shows it, and search of posts or comments with
// the matches highlighted, through the API's feeds, posts and search services.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FeedPostsParams, PostListQuery } from '../posts/posts.schemas.js';
import { SearchParams } from '../search/search.schemas.js';
import { dataOf, type PageOfRecords } from './answers.js';
import type { ConsoleDeps } from './console-deps.js';
import { PageParams, SlugParams } from './forms.js';
import { page } from './render.js';
import { communityOf } from './session.js';

const FeedParams = Type.Object({ slug: SlugParams.properties.slug, feed: FeedPostsParams.properties.feed_id });
const PostParams = Type.Object({ slug: SlugParams.properties.slug, id: Type.String({ pattern: '^[a-z0-9]{12}$' }) });
const PostsQuery = Type.Object({ ...PostListQuery.properties, per_page: PageParams.per_page });
const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 256 })),
  type: Type.Optional(SearchParams.properties.type),
  ...PageParams,
});

export const contentRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { feeds, posts, search }) => {
  app.get(
    '/c/:slug/content',
    { schema: { hide: true, params: SlugParams, querystring: Type.Object(PageParams) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const list = await feeds.list(community.id, request.query);
      return page(request, reply, 'feeds', { title: 'Content', community, section: 'content', list });
    },
  );

  app.get(
    '/c/:slug/content/feeds/:feed',
    { schema: { hide: true, params: FeedParams, querystring: PostsQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const list = dataOf<PageOfRecords>(await posts.list(community.id, request.params.feed, request.query));
      const feed =
        request.params.feed === 'home'
          ? { label: 'Home', id: 'home' }
          : await feeds.get(community.id, request.params.feed);
      return page(request, reply, 'posts', {
        title: `Posts in ${feed.label ?? feed.id}`,
        community,
        section: 'content',
        feed,
        list,
        sort: request.query.sort,
      });
    },
  );

  app.get('/c/:slug/content/posts/:id', { schema: { hide: true, params: PostParams } }, async (request, reply) => {
    const community = communityOf(request, request.params.slug);
    const answer = await posts.get(community.id, request.params.id);
    const post = dataOf<Record<string, unknown>>(answer);
    // The answer's own bytes, indented: exactly what GET /admin/v0/posts/{id} sends.
    const json = JSON.stringify(JSON.parse(answer.body.toString('utf8')), null, 2);
    return page(request, reply, 'post', {
      title: String(post['title'] ?? request.params.id),
      community,
      section: 'content',
      post,
      json,
      etag: answer.etag,
    });
  });

  app.get(
    '/c/:slug/content/search',
    { schema: { hide: true, params: SlugParams, querystring: SearchQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const q = request.query.q?.trim() ?? '';
      const type = request.query.type ?? 'post';
      let list: PageOfRecords | null = null;
      if (q !== '') {
        const found = await search.search(community.id, {
          q,
          type,
          page: request.query.page,
          per_page: request.query.per_page,
          highlight: true,
        });
        list = 'answer' in found ? dataOf<PageOfRecords>(found.answer) : (found.page as unknown as PageOfRecords);
      }
      return page(request, reply, 'search', {
        title: q ? `Search: ${q}` : 'Search',
        community,
        section: 'content',
        q,
        type,
        list,
      });
    },
  );
};
