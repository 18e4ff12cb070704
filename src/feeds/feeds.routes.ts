// HTTP routes of feeds: the list and one feed, as the hosted product answers them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { FeedListQuery, FeedPageResponse, FeedParams, FeedResponse } from './feeds.schemas.js';
import type { FeedsService } from './feeds.service.js';

export const feedsRoutes: FastifyPluginAsyncTypebox<{ feeds: FeedsService }> = async (app, { feeds }) => {
  app.get(
    '/feeds',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listFeeds',
        summary: 'List feeds',
        description:
          'Every feed of the community, archived and unlisted ones included unless filtered; by label (byte order), then id.',
        tags: ['Feeds'],
        querystring: FeedListQuery,
        response: { 200: FeedPageResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await feeds.list(principalOf(request).communityId, request.query) }),
  );

  app.get(
    '/feeds/:feed_id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getFeed',
        summary: 'Retrieve a feed',
        tags: ['Feeds'],
        params: FeedParams,
        response: { 200: FeedResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await feeds.get(principalOf(request).communityId, request.params.feed_id),
    }),
  );
};
