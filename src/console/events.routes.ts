// Event pages: upcoming and past lists with the API's filters, a month view, and create, edit (If-Match with the
// ETag the form was opened with) and delete through the API's own event-writes service.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { eventsByIds } from '../events/events.repository.js';
import { EventListQuery } from '../events/events.schemas.js';
import { ifMatchHolds } from '../http/answer.js';
import { toStored } from '../lib/timestamps.js';
import { dataOf, refusalOf, type PageOfRecords } from './answers.js';
import type { ConsoleDeps } from './console-deps.js';
import { createBody, EventForm, fieldsOf, updateBody, type EventFields } from './event-form.js';
import { Form, operatorActor, PageParams, SlugParams } from './forms.js';
import { monthGrid, parseMonth } from './month.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, notify } from './session.js';

const EventParams = Type.Object({ slug: SlugParams.properties.slug, id: Type.String({ pattern: '^[a-z0-9]{12}$' }) });
/** The list's filters as a form sends them: every one may be empty ("either"), which the API's query leaves out. */
const Either = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('')]));
const ListQuery = Type.Object({
  ...PageParams,
  time_filter: Type.Optional(Type.Union([Type.Literal('upcoming'), Type.Literal('past'), Type.Literal('')])),
  date_filter: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(
    Type.Union([Type.Literal('published'), Type.Literal('needs_approval'), Type.Literal('draft'), Type.Literal('')]),
  ),
  published_to_site: Either,
  is_unlisted: Either,
  feed_id: Type.Optional(Type.String({ maxLength: 64 })),
});
type ListQuery = Static<typeof ListQuery>;

/** The API's list query of the form's filters: empty ones left out, yes/no as booleans. */
function apiQuery(q: ListQuery): EventListQuery {
  const flag = (v: string | undefined) => (v === 'true' ? true : v === 'false' ? false : undefined);
  const query: EventListQuery = { page: q.page, per_page: q.per_page };
  if (q.time_filter) query.time_filter = q.time_filter;
  if (q.date_filter) query.date_filter = q.date_filter;
  if (q.status) query.status = q.status;
  if (q.feed_id) query.feed_id = q.feed_id;
  const site = flag(q.published_to_site);
  if (site !== undefined) query.published_to_site = site;
  const unlisted = flag(q.is_unlisted);
  if (unlisted !== undefined) query.is_unlisted = unlisted;
  return query;
}

const MonthQuery = Type.Object({
  month: Type.Optional(Type.String({ maxLength: 7 })),
  status: EventListQuery.properties.status,
});
const DeleteForm = Form({ etag: Type.Optional(Type.String({ maxLength: 200 })) });

const STALE =
  'Someone changed this event after you opened it, so your edit was not saved. The form now shows the event as it is: make your change again.';
const blank: EventFields = { status: 'published' };

export const eventsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { events, eventWrites, store } = deps;
  const base = (slug: string) => `${CONSOLE_PATH}/c/${slug}/events`;

  async function current(communityId: string, id: string) {
    const answer = await events.get(communityId, id);
    const [row] = await eventsByIds(store.db, communityId, [id]);
    return fieldsOf(dataOf<Record<string, unknown>>(answer), answer.etag, row?.time_zone ?? null);
  }

  app.get(
    '/c/:slug/events',
    { schema: { hide: true, params: SlugParams, querystring: ListQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const list = dataOf<PageOfRecords>(await events.list(community.id, apiQuery(request.query)));
      const filters = Object.fromEntries(
        Object.entries(request.query).filter(([key, value]) => key !== 'page' && value !== undefined && value !== ''),
      );
      return page(request, reply, 'events', { title: 'Events', community, section: 'events', list, filters });
    },
  );

  app.get(
    '/c/:slug/events/month',
    { schema: { hide: true, params: SlugParams, querystring: MonthQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const month = parseMonth(request.query.month, deps.clock());
      const status = request.query.status ?? 'published';
      const limit = 100;
      const found = dataOf<PageOfRecords>(
        await events.within(community.id, { from: toStored(month.from), to: toStored(month.to) }, status, limit),
      );
      return page(request, reply, 'month', {
        title: `Events in ${month.label}`,
        community,
        section: 'events',
        month,
        status,
        weeks: monthGrid(month, found.records),
        more: found.total_records > limit ? found.total_records - limit : 0,
      });
    },
  );

  app.get('/c/:slug/events/new', { schema: { hide: true, params: SlugParams } }, async (request, reply) => {
    const community = communityOf(request, request.params.slug);
    return page(request, reply, 'event-form', {
      title: 'New event',
      community,
      section: 'events',
      fields: blank,
      id: null,
    });
  });

  app.post(
    '/c/:slug/events',
    { schema: { hide: true, params: SlugParams, body: EventForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      try {
        const answer = await eventWrites.create(operatorActor(request, community.id), createBody(request.body));
        const created = dataOf<{ id: string; title: string }>(answer);
        notify(request, reply, `Event “${created.title}” created.`);
        return reply.redirect(`${base(community.slug)}/${created.id}`, 303);
      } catch (error) {
        const problem = refusalOf(error);
        return page(
          request,
          reply,
          'event-form',
          { title: 'New event', community, section: 'events', fields: request.body, id: null, problem },
          problem.status,
        );
      }
    },
  );

  app.get('/c/:slug/events/:id', { schema: { hide: true, params: EventParams } }, async (request, reply) => {
    const community = communityOf(request, request.params.slug);
    const fields = await current(community.id, request.params.id);
    return page(request, reply, 'event-form', {
      title: `Edit “${fields.title}”`,
      community,
      section: 'events',
      fields,
      id: request.params.id,
    });
  });

  app.post(
    '/c/:slug/events/:id',
    { schema: { hide: true, params: EventParams, body: EventForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const { id } = request.params;
      const etag = request.body.etag ?? '';
      try {
        const answer = await eventWrites.update(
          operatorActor(request, community.id),
          id,
          updateBody(request.body),
          (now) => ifMatchHolds(etag, now),
        );
        notify(request, reply, `Event “${dataOf<{ title: string }>(answer).title}” saved.`);
        return reply.redirect(`${base(community.slug)}/${id}`, 303);
      } catch (error) {
        const problem = refusalOf(error);
        const stale = error instanceof AppError && error.code === 'precondition_failed';
        // A stale form is shown as the event now is (with its new ETag); a refused one as it was typed.
        const fields = stale ? await current(community.id, id) : request.body;
        return page(
          request,
          reply,
          'event-form',
          {
            title: `Edit “${fields.title ?? ''}”`,
            community,
            section: 'events',
            fields,
            id,
            problem: stale ? { ...problem, message: STALE } : problem,
          },
          problem.status,
        );
      }
    },
  );

  app.post(
    '/c/:slug/events/:id/delete',
    { schema: { hide: true, params: EventParams, body: DeleteForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const etag = request.body.etag ?? '';
      try {
        await eventWrites.remove(operatorActor(request, community.id), request.params.id, (now) =>
          ifMatchHolds(etag, now),
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'precondition_failed') {
          notify(
            request,
            reply,
            'Not deleted: someone changed this event after you opened it. Look at it again first.',
          );
          return reply.redirect(`${base(community.slug)}/${request.params.id}`, 303);
        }
        throw error;
      }
      notify(request, reply, 'Event deleted.');
      return reply.redirect(base(community.slug), 303);
    },
  );
};
