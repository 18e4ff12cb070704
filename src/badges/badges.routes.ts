// HTTP routes of badges: the list, one badge, and assigning it to members (scope `members:write`).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdempotencyHeaders, idempotently } from '../http/idempotency.js';
import type { IdempotencyService, StoredResponse } from '../idempotency/idempotency.service.js';
import { saveResponseOf } from '../idempotency/save-response.js';
import type { Badge } from '../schemas/badge.js';
import { errorResponses } from '../schemas/error-responses.js';
import { principalOf } from '../tokens/auth.js';
import { AssignBadgeBody, BadgeListQuery, BadgePageResponse, BadgeParams, BadgeResponse } from './badges.schemas.js';
import type { BadgesService } from './badges.service.js';

const responseOf = (badge: Badge): StoredResponse<BadgeResponse> => ({
  status: 200,
  body: { success: true, data: badge },
});

export const badgesRoutes: FastifyPluginAsyncTypebox<{
  badges: BadgesService;
  idempotency: IdempotencyService;
}> = async (app, { badges, idempotency }) => {
  app.removeContentTypeParser('text/plain');

  app.get(
    '/badges',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listBadges',
        summary: 'List badges',
        description: 'Every badge of the community with the members holding it; by name (byte order), then id.',
        tags: ['Badges'],
        querystring: BadgeListQuery,
        response: { 200: BadgePageResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await badges.list(principalOf(request).communityId, request.query) }),
  );

  app.get(
    '/badges/:badge_id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getBadge',
        summary: 'Retrieve a badge',
        tags: ['Badges'],
        params: BadgeParams,
        response: { 200: BadgeResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await badges.get(principalOf(request).communityId, request.params.badge_id),
    }),
  );

  app.post(
    '/badges/:badge_id/assign',
    {
      config: { scope: 'members:write' },
      schema: {
        operationId: 'assignBadge',
        summary: 'Give a badge to members, by chat user id',
        description:
          'Adds holders: a member holding the badge already keeps it as it was. Every chat user id must be a member of the community.',
        tags: ['Badges'],
        params: BadgeParams,
        headers: IdempotencyHeaders,
        body: AssignBadgeBody,
        response: {
          200: { ...BadgeResponse, description: 'The badge with every holder, those just added included' },
          ...errorResponses(400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const { communityId, tokenId } = principalOf(request);
      const actor = { communityId, tokenId, requestId: request.id };
      return idempotently(request, reply, idempotency, communityId, async (saveResponse) =>
        responseOf(
          await badges.assign(
            actor,
            request.params.badge_id,
            request.body.users,
            saveResponseOf(saveResponse, responseOf),
          ),
        ),
      );
    },
  );
};
