// HTTP routes of the calendars: the admin route's .ics (a token with `read`) and the subscribe URLs a calendar
// app polls without a token (rate-limited per address like every page outside /admin/v0).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../http/answer.js';
import { errorResponses } from '../schemas/error-responses.js';
import { principalOf } from '../tokens/auth.js';
import type { CalendarAnswer, CalendarService } from './calendar.service.js';
import { CalendarBody, CalendarQuery, IfNoneMatchHeader, SubscriptionParams } from './calendar.schemas.js';
import { CALENDAR_CONTENT_TYPE } from './ical-feed.js';

/** Subscribers may keep an answer 5 minutes, never in a shared cache (the URL is a secret); admins revalidate. */
export const SUBSCRIBER_CACHE = 'private, max-age=300';
export const ADMIN_CACHE = 'private, no-cache';

function sendCalendar(request: FastifyRequest, reply: FastifyReply, answer: CalendarAnswer, cache: string) {
  reply.header('etag', answer.etag).header('cache-control', cache);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, answer.etag)) return reply.code(304).send();
  return reply.type(CALENDAR_CONTENT_TYPE).send(answer.body());
}

export const adminCalendarRoutes: FastifyPluginAsyncTypebox<{ calendars: CalendarService }> = async (
  app,
  { calendars },
) => {
  app.get(
    '/calendar_events.ics',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getCalendarEventsIcs',
        summary: 'Calendar events as iCalendar',
        description:
          'The events the list route would answer for the same filters (published by default), all of them (at most 5000, the earliest first), as one RFC 5545 calendar. See docs/calendars.md.',
        tags: ['Calendar events'],
        querystring: CalendarQuery,
        response: { 200: CalendarBody('An iCalendar document'), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendCalendar(
        request,
        reply,
        await calendars.forAdmin(principalOf(request).communityId, request.query),
        ADMIN_CACHE,
      ),
  );
};

export const subscriptionRoutes: FastifyPluginAsyncTypebox<{ calendars: CalendarService }> = async (
  app,
  { calendars },
) => {
  app.get(
    '/calendar/:secret',
    {
      // Not part of the admin API's document (no token, no JSON): docs/calendars.md describes it.
      schema: { hide: true, params: SubscriptionParams, headers: IfNoneMatchHeader },
    },
    async (request, reply) => {
      const file = request.params.secret;
      // The path ends in `.ics`, which calendar apps look for; anything else names no calendar.
      const secret = file.endsWith('.ics') ? file.slice(0, -4) : '';
      return sendCalendar(request, reply, await calendars.forSubscriber(secret), SUBSCRIBER_CACHE);
    },
  );
};
