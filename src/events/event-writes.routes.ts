// HTTP routes that create, change and delete calendar events (scope `events:write`).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ifMatchHolds } from '../http/answer.js';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { etagFor } from '../http/hosted-mode.js';
import { IdempotencyHeaders, idempotently } from '../http/idempotency.js';
import type { IdempotencyService, StoredResponse } from '../idempotency/idempotency.service.js';
import { saveResponseOf } from '../idempotency/save-response.js';
import type { Answer } from '../fragments/splice.js';
import type { Actor } from '../writes/actor.js';
import {
  CreateEventBody,
  DeletedEventResponse,
  EventWriteParams,
  EventWriteResponse,
  IfMatchHeaders,
  UpdateEventBody,
} from './event-writes.schemas.js';
import type { EventWritesService, Precondition } from './event-writes.service.js';

const actorOf = (request: FastifyRequest): Actor => {
  const { communityId, tokenId } = principalOf(request);
  return { communityId, tokenId, requestId: request.id };
};

/** The request's If-Match as a test of the event's current ETag, in the representation this token reads. */
function preconditionOf(request: FastifyRequest): Precondition | undefined {
  const ifMatch = request.headers['if-match'];
  return typeof ifMatch === 'string' ? (etag) => ifMatchHolds(ifMatch, etagFor(request, etag)) : undefined;
}

const bodyOf = (answer: Answer) => JSON.parse(answer.body.toString('utf8')) as EventWriteBody;
type EventWriteBody = import('@sinclair/typebox').Static<typeof EventWriteResponse>;
const created = (answer: Answer): StoredResponse<EventWriteBody> => ({ status: 201, body: bodyOf(answer) });

export const eventWritesRoutes: FastifyPluginAsyncTypebox<{
  writes: EventWritesService;
  idempotency: IdempotencyService;
}> = async (app, { writes, idempotency }) => {
  app.removeContentTypeParser('text/plain');

  app.post(
    '/calendar_events',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'createCalendarEvent',
        summary: 'Create a calendar event',
        tags: ['Calendar events'],
        headers: IdempotencyHeaders,
        body: CreateEventBody,
        response: {
          201: { ...EventWriteResponse, description: 'The new event, as GET answers it' },
          ...errorResponses(400, 401, 403, 408, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const body = await idempotently<EventWriteBody>(
        request,
        reply,
        idempotency,
        principalOf(request).communityId,
        async (saveResponse) => {
          const answer = await writes.create(actorOf(request), request.body, saveResponseOf(saveResponse, created));
          reply.header('etag', etagFor(request, answer.etag));
          return created(answer);
        },
      );
      reply.header('location', `/admin/v0/calendar_events/${body.data.id}`);
      return body;
    },
  );

  app.patch(
    '/calendar_events/:calendar_event_id',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'updateCalendarEvent',
        summary: 'Change fields of a calendar event (JSON merge semantics; If-Match for optimistic concurrency)',
        tags: ['Calendar events'],
        params: EventWriteParams,
        headers: IfMatchHeaders,
        body: UpdateEventBody,
        response: {
          200: { ...EventWriteResponse, description: 'The changed event, as GET answers it' },
          ...errorResponses(400, 401, 403, 404, 408, 412, 413, 415, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const answer = await writes.update(
        actorOf(request),
        request.params.calendar_event_id,
        request.body,
        preconditionOf(request),
      );
      reply.header('etag', etagFor(request, answer.etag));
      return bodyOf(answer);
    },
  );

  app.delete(
    '/calendar_events/:calendar_event_id',
    {
      config: { scope: 'events:write' },
      schema: {
        operationId: 'deleteCalendarEvent',
        summary: 'Delete a calendar event',
        tags: ['Calendar events'],
        params: EventWriteParams,
        headers: IfMatchHeaders,
        response: {
          200: { ...DeletedEventResponse, description: 'The event was deleted' },
          ...errorResponses(400, 401, 403, 404, 412, 429, 503),
        },
      },
    },
    async (request) => {
      await writes.remove(actorOf(request), request.params.calendar_event_id, preconditionOf(request));
      return { success: true, data: { id: request.params.calendar_event_id } };
    },
  );
};
