// HTTP routes of groups: the list, one group, and replacing its members (scope `members:write`).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas/error-responses.js';
import { principalOf } from '../tokens/auth.js';
import { GroupListQuery, GroupMembersBody, GroupPageResponse, GroupParams, GroupResponse } from './groups.schemas.js';
import type { GroupsService } from './groups.service.js';

export const groupsRoutes: FastifyPluginAsyncTypebox<{ groups: GroupsService }> = async (app, { groups }) => {
  app.removeContentTypeParser('text/plain');

  app.get(
    '/groups',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listGroups',
        summary: 'List groups',
        description: 'Every group of the community with its members; by name (byte order), then id.',
        tags: ['Groups'],
        querystring: GroupListQuery,
        response: { 200: GroupPageResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await groups.list(principalOf(request).communityId, request.query) }),
  );

  app.get(
    '/groups/:group_id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getGroup',
        summary: 'Retrieve a group',
        tags: ['Groups'],
        params: GroupParams,
        response: { 200: GroupResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await groups.get(principalOf(request).communityId, request.params.group_id),
    }),
  );

  app.put(
    '/groups/:group_id/members',
    {
      config: { scope: 'members:write' },
      schema: {
        operationId: 'replaceGroupMembers',
        summary: "Replace a group's members, by chat user id",
        description:
          'The members named become the whole group: others leave it, those who stay keep their `added_at`. Every chat user id must be a member of the community. Sending the same list again changes nothing.',
        tags: ['Groups'],
        params: GroupParams,
        body: GroupMembersBody,
        response: {
          200: { ...GroupResponse, description: 'The group with its members as they now are' },
          ...errorResponses(400, 401, 403, 404, 408, 413, 415, 429, 503),
        },
      },
    },
    async (request) => {
      const { communityId, tokenId } = principalOf(request);
      const actor = { communityId, tokenId, requestId: request.id };
      return { success: true, data: await groups.replaceMembers(actor, request.params.group_id, request.body.users) };
    },
  );
};
