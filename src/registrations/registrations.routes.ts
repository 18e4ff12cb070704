// HTTP routes of event registrations (scope `events:write`, the list's too: it shows registrants' e-mails).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { IdempotencyHeaders, idempotently } from '../http/idempotency.js';
import type { IdempotencyService, StoredResponse } from '../idempotency/idempotency.service.js';
import { saveResponseOf } from '../idempotency/save-response.js';
import { trimMemberBody } from '../members/members.schemas.js';
import { errorResponses } from '../schemas/error-responses.js';
import { principalOf } from '../tokens/auth.js';
import type { Actor } from '../writes/actor.js';
import {
  RegisterBody,
  RegistrationPageResponse,
  RegistrationParams,
  RegistrationResponse,
  RegistrationsParams,
  RegistrationsQuery,
} from './registrations.schemas.js';
import type { RegisterOutcome, RegistrationsService } from './registrations.service.js';

const registrationMessages = {
  registered: 'Registered for the event.',
  already: 'Already registered for the event.',
  unregistered: 'Unregistered from the event.',
} as const;

const actorOf = (request: FastifyRequest): Actor => {
  const { communityId, tokenId } = principalOf(request);
  return { communityId, tokenId, requestId: request.id };
};

function responseOf(outcome: RegisterOutcome): StoredResponse<RegistrationResponse> {
  return {
    status: outcome.registered ? 201 : 200,
    body: {
      success: true,
      message: outcome.registered ? registrationMessages.registered : registrationMessages.already,
      data: { registration: outcome.registration },
    },
  };
}

export const registrationsRoutes: FastifyPluginAsyncTypebox<{
  registrations: RegistrationsService;
  idempotency: IdempotencyService;
}> = async (app, { registrations, idempotency }) => {
  app.removeContentTypeParser('text/plain');

  app.post(
    '/calendar_events/:calendar_event_id/registrations',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'registerForCalendarEvent',
        summary: 'Register a person for a calendar event (they become a member, as adding a member makes them)',
        description:
          'Open only for a published event with `enable_registration_button` that has not ended. A person is registered once: registering again answers 200 with the first registration.',
        tags: ['Calendar events'],
        params: RegistrationsParams,
        headers: IdempotencyHeaders,
        body: RegisterBody,
        response: {
          200: { ...RegistrationResponse, description: 'The person was registered already' },
          201: { ...RegistrationResponse, description: 'The person is now registered' },
          ...errorResponses(400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 503),
        },
      },
      preValidation: async (request) => trimMemberBody(request.body),
    },
    async (request, reply) =>
      idempotently(request, reply, idempotency, principalOf(request).communityId, async (saveResponse) =>
        responseOf(
          await registrations.register(
            actorOf(request),
            request.params.calendar_event_id,
            request.body,
            saveResponseOf(saveResponse, responseOf),
          ),
        ),
      ),
  );

  app.delete(
    '/calendar_events/:calendar_event_id/registrations/:member_id',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'unregisterFromCalendarEvent',
        summary: "Remove a member's registration for a calendar event",
        tags: ['Calendar events'],
        params: RegistrationParams,
        response: {
          200: { ...RegistrationResponse, description: 'The registration that was removed' },
          ...errorResponses(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request): Promise<RegistrationResponse> => ({
      success: true,
      message: registrationMessages.unregistered,
      data: {
        registration: await registrations.unregister(
          actorOf(request),
          request.params.calendar_event_id,
          request.params.member_id,
        ),
      },
    }),
  );

  app.get(
    '/calendar_events/:calendar_event_id/registrations',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'listCalendarEventRegistrations',
        summary: "List a calendar event's registrations",
        description:
          'By registration time, then member id. Needs `events:write`: the records carry the registrants\u2019 e-mails.',
        tags: ['Calendar events'],
        params: RegistrationsParams,
        querystring: RegistrationsQuery,
        response: { 200: RegistrationPageResponse, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => ({
      success: true,
      data: await registrations.list(principalOf(request).communityId, request.params.calendar_event_id, request.query),
    }),
  );
};
