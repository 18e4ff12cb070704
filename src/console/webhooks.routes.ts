// Webhook pages: add (the secret shown once), remove, recent deliveries with status and timing, replay one, through
// the webhooks service `hearth webhook` uses. Every id is checked against the community's own webhooks first.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { WebhookError } from '../webhooks/webhooks.service.js';
import type { ConsoleDeps } from './console-deps.js';
import { Field, Form, PageParams, SlugParams } from './forms.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, notify } from './session.js';

const AddForm = Form({ url: Field(2048), events: Field(500) });
const HookParams = Type.Object({ slug: SlugParams.properties.slug, id: Type.String({ maxLength: 64 }) });
const DeliveryParams = Type.Object({ ...HookParams.properties, delivery: Type.String({ maxLength: 64 }) });
const ListQuery = Type.Object(PageParams);

export const webhooksRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { webhooks, config }) => {
  const listPath = (slug: string) => `${CONSOLE_PATH}/c/${slug}/webhooks`;

  async function owned(communityId: string, id: string) {
    const hook = (await webhooks.list(communityId)).find((h) => h.id === id);
    if (!hook) throw new AppError('not_found', `No webhook '${id}' in this community.`);
    return hook;
  }

  async function listed(communityId: string, pageNumber: number, perPage: number) {
    const rows = await webhooks.list(communityId);
    const totalPages = Math.ceil(rows.length / perPage);
    return {
      page: pageNumber,
      total_records: rows.length,
      total_pages: totalPages,
      has_next: pageNumber + 1 < totalPages,
      records: rows.slice(pageNumber * perPage, (pageNumber + 1) * perPage),
    };
  }

  app.get(
    '/c/:slug/webhooks',
    { schema: { hide: true, params: SlugParams, querystring: ListQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const list = await listed(community.id, request.query.page, request.query.per_page);
      return page(request, reply, 'webhooks', {
        title: 'Webhooks',
        community,
        section: 'webhooks',
        list,
        added: null,
        fields: {},
      });
    },
  );

  app.post(
    '/c/:slug/webhooks',
    { schema: { hide: true, params: SlugParams, body: AddForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const url = request.body.url?.trim() ?? '';
      try {
        const added = await webhooks.add(community.id, url, {
          events: request.body.events?.trim() || '*',
          allowPrivate: config.webhookAllowPrivate,
        });
        const list = await listed(community.id, 0, 20);
        return page(
          request,
          reply,
          'webhooks',
          { title: 'Webhooks', community, section: 'webhooks', list, added, fields: {} },
          201,
        );
      } catch (error) {
        if (!(error instanceof WebhookError)) throw error;
        const list = await listed(community.id, 0, 20);
        const problem = { message: error.message, details: [] };
        return page(
          request,
          reply,
          'webhooks',
          { title: 'Webhooks', community, section: 'webhooks', list, added: null, fields: request.body, problem },
          400,
        );
      }
    },
  );

  app.post(
    '/c/:slug/webhooks/:id/remove',
    { schema: { hide: true, params: HookParams, body: Form({}) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const hook = await owned(community.id, request.params.id);
      await webhooks.remove(hook.id);
      notify(request, reply, `Webhook to ${hook.url} removed, with its undelivered messages.`);
      return reply.redirect(listPath(community.slug), 303);
    },
  );

  app.get(
    '/c/:slug/webhooks/:id',
    { schema: { hide: true, params: HookParams, querystring: ListQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const hook = await owned(community.id, request.params.id);
      const { page: pageNumber, per_page } = request.query;
      // Newest first; one more than the page asks says whether a next page exists.
      const rows = await webhooks.deliveries(hook.id, (pageNumber + 1) * per_page + 1);
      const records = rows.slice(pageNumber * per_page, (pageNumber + 1) * per_page);
      return page(request, reply, 'deliveries', {
        title: `Deliveries to ${hook.url}`,
        community,
        section: 'webhooks',
        hook,
        list: { page: pageNumber, records, has_next: rows.length > (pageNumber + 1) * per_page },
      });
    },
  );

  app.post(
    '/c/:slug/webhooks/:id/deliveries/:delivery/replay',
    { schema: { hide: true, params: DeliveryParams, body: Form({}) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const hook = await owned(community.id, request.params.id);
      const recent = await webhooks.deliveries(hook.id, 1000);
      const delivery = recent.find((d) => d.id === request.params.delivery);
      if (!delivery) throw new AppError('not_found', `No delivery '${request.params.delivery}' of this webhook.`);
      await webhooks.replay(delivery.id);
      notify(request, reply, `Message ${delivery.message_id} (${delivery.event_type}) queued to be sent again.`);
      return reply.redirect(`${listPath(community.slug)}/${hook.id}`, 303);
    },
  );
};
