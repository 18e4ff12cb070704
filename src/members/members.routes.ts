// HTTP routes of adding a member (spec 4.6) and deactivating one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { IdempotencyHeaders, idempotently } from '../http/idempotency.js';
import type { IdempotencyService, StoredResponse } from '../idempotency/idempotency.service.js';
import { saveResponseOf } from '../idempotency/save-response.js';
import { AddMemberBody, AddMemberResponse, MemberParams, trimMemberBody } from './members.schemas.js';
import type { AddMemberOutcome, MembersService } from './members.service.js';

export const memberMessages = {
  created: 'New member was created successfully.',
  updated: 'Member already existed and was updated successfully.',
  reactivated: 'Member was deactivated and has been reactivated and updated successfully.',
  deactivated: 'Member was deactivated successfully.',
  alreadyDeactivated: 'Member was already deactivated.',
} as const;

function responseOf(outcome: AddMemberOutcome): StoredResponse<AddMemberResponse> {
  const body: AddMemberResponse = {
    success: true,
    message: outcome.created
      ? memberMessages.created
      : outcome.reactivated
        ? memberMessages.reactivated
        : memberMessages.updated,
    data: { member: outcome.member },
  };
  return { status: outcome.created ? 201 : 200, body };
}

export const membersRoutes: FastifyPluginAsyncTypebox<{
  members: MembersService;
  idempotency: IdempotencyService;
}> = async (app, { members, idempotency }) => {
  // Fastify parses text/plain by default; this route takes JSON only, so anything else is 415.
  app.removeContentTypeParser('text/plain');

  app.post(
    '/members',
    {
      config: { scope: 'members:write' },
      schema: {
        operationId: 'addMember',
        summary: 'Add a member, or update the member with that e-mail (Alpha)',
        tags: ['Members'],
        headers: IdempotencyHeaders,
        body: AddMemberBody,
        response: {
          200: { ...AddMemberResponse, description: 'A member with this e-mail existed and was updated' },
          201: { ...AddMemberResponse, description: 'A new member was created' },
          ...errorResponses(400, 401, 403, 408, 409, 413, 415, 422, 429, 503),
        },
      },
      preValidation: async (request) => trimMemberBody(request.body),
    },
    async (request, reply) => {
      const { communityId, tokenId } = principalOf(request);
      const actor = { communityId, tokenId, requestId: request.id };
      return idempotently(request, reply, idempotency, communityId, async (saveResponse) =>
        responseOf(await members.add(actor, request.body, saveResponseOf(saveResponse, responseOf))),
      );
    },
  );

  app.post(
    '/members/:member_id/deactivate',
    {
      config: { scope: 'members:write' },
      schema: {
        operationId: 'deactivateMember',
        summary: 'Deactivate a member; what they wrote or host stays as it is',
        tags: ['Members'],
        params: MemberParams,
        response: {
          200: { ...AddMemberResponse, description: 'The member is deactivated (also when it already was)' },
          ...errorResponses(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request): Promise<AddMemberResponse> => {
      const { communityId, tokenId } = principalOf(request);
      const outcome = await members.deactivate(
        { communityId, tokenId, requestId: request.id },
        request.params.member_id,
      );
      return {
        success: true,
        message: outcome.already ? memberMessages.alreadyDeactivated : memberMessages.deactivated,
        data: { member: outcome.member },
      };
    },
  );
};
