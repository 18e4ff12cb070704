// HTTP routes of calendar events (spec 4.1, 4.2); answers leave as the bytes the fragments make.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { earlyAnswer, sendAnswer } from '../http/answer.js';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { EventListQuery, EventPageResponse, EventParams, EventResponse } from './events.schemas.js';
import type { EventsService } from './events.service.js';

export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.get(
    '/calendar_events/:calendar_event_id',
    {
      config: { scope: 'read' },
      onRequest: earlyAnswer((request) =>
        events.peek(
          principalOf(request).communityId,
          (request.params as { calendar_event_id: string }).calendar_event_id,
        ),
      ),
      schema: {
        operationId: 'getCalendarEvent',
        summary: 'Retrieve a calendar event',
        tags: ['Calendar events'],
        params: EventParams,
        response: { 200: EventResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendAnswer(request, reply, await events.get(principalOf(request).communityId, request.params.calendar_event_id)),
  );

  app.get(
    '/calendar_events',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listCalendarEvents',
        summary: 'List calendar events',
        tags: ['Calendar events'],
        querystring: EventListQuery,
        response: { 200: EventPageResponse, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendAnswer(request, reply, await events.list(principalOf(request).communityId, request.query)),
  );
};
