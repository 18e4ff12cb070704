// HTTP routes of posts (spec 4.3, 4.4); answers leave as the bytes the fragments make.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { earlyAnswer, sendAnswer } from '../http/answer.js';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { FeedPostsParams, PostListQuery, PostPageResponse, PostParams, PostResponse } from './posts.schemas.js';
import type { PostsService } from './posts.service.js';

export const postsRoutes: FastifyPluginAsyncTypebox<{ posts: PostsService }> = async (app, { posts }) => {
  app.get(
    '/feeds/:feed_id/posts',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listFeedPosts',
        summary: "List a feed's posts, or the Home feed's",
        tags: ['Posts'],
        params: FeedPostsParams,
        querystring: PostListQuery,
        response: { 200: PostPageResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendAnswer(
        request,
        reply,
        await posts.list(principalOf(request).communityId, request.params.feed_id, request.query),
      ),
  );

  app.get(
    '/posts/:post_id',
    {
      config: { scope: 'read' },
      onRequest: earlyAnswer((request) =>
        posts.peek(principalOf(request).communityId, (request.params as { post_id: string }).post_id),
      ),
      schema: {
        operationId: 'getPost',
        summary: 'Retrieve a post',
        tags: ['Posts'],
        params: PostParams,
        response: { 200: PostResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendAnswer(request, reply, await posts.get(principalOf(request).communityId, request.params.post_id)),
  );
};
