// Member pages: the list searched by name or e-mail, add (the API's add-member rules and messages), deactivate and
// reactivate, through the API's members service.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AddMemberBody, trimMemberBody } from '../members/members.schemas.js';
import { memberMessages } from '../members/members.routes.js';
import { refusalOf, validationRefusal } from './answers.js';
import type { ConsoleDeps } from './console-deps.js';
import { Form, operatorActor, PageParams, SlugParams } from './forms.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, notify } from './session.js';

const ListQuery = Type.Object({
  ...PageParams,
  q: Type.Optional(Type.String({ maxLength: 200 })),
  state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('deactivated'), Type.Literal('')])),
});
const AddForm = Form({ email: AddMemberBody.properties.email, full_name: AddMemberBody.properties.full_name });
const MemberParams = Type.Object({ slug: SlugParams.properties.slug, id: Type.String({ maxLength: 64 }) });
const ActionForm = Form({});

export const membersRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { members, store }) => {
  const listPath = (slug: string) => `${CONSOLE_PATH}/c/${slug}/members`;

  app.get(
    '/c/:slug/members',
    { schema: { hide: true, params: SlugParams, querystring: ListQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const { q, state, page: pageNumber, per_page } = request.query;
      const list = await members.list(community.id, {
        q,
        state: state === '' ? undefined : state,
        page: pageNumber,
        per_page,
      });
      const filters = Object.fromEntries(Object.entries({ q, state }).filter(([, v]) => v !== undefined && v !== ''));
      return page(request, reply, 'members', {
        title: 'Members',
        community,
        section: 'members',
        list,
        filters,
        fields: {},
      });
    },
  );

  app.post(
    '/c/:slug/members',
    {
      schema: { hide: true, params: SlugParams, body: AddForm },
      attachValidation: true,
      preValidation: async (request) => trimMemberBody(request.body),
    },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      try {
        if (request.validationError) return await refuse(validationRefusal(request.validationError, store.dialect));
        const outcome = await members.add(operatorActor(request, community.id), request.body);
        const message = outcome.created
          ? memberMessages.created
          : outcome.reactivated
            ? memberMessages.reactivated
            : memberMessages.updated;
        notify(request, reply, `${message} (${outcome.member.email})`);
        return reply.redirect(listPath(community.slug), 303);
      } catch (error) {
        return refuse(refusalOf(error));
      }
      async function refuse(problem: ReturnType<typeof refusalOf>) {
        const list = await members.list(community.id, { page: 0, per_page: 20 });
        return page(
          request,
          reply,
          'members',
          { title: 'Members', community, section: 'members', list, filters: {}, fields: request.body ?? {}, problem },
          problem.status,
        );
      }
    },
  );

  app.post(
    '/c/:slug/members/:id/deactivate',
    { schema: { hide: true, params: MemberParams, body: ActionForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const outcome = await members.deactivate(operatorActor(request, community.id), request.params.id);
      notify(
        request,
        reply,
        `${outcome.already ? memberMessages.alreadyDeactivated : memberMessages.deactivated} (${outcome.member.email})`,
      );
      return reply.redirect(listPath(community.slug), 303);
    },
  );

  app.post(
    '/c/:slug/members/:id/reactivate',
    { schema: { hide: true, params: MemberParams, body: ActionForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const outcome = await members.reactivate(operatorActor(request, community.id), request.params.id);
      notify(
        request,
        reply,
        `${outcome.reactivated ? memberMessages.reactivated : memberMessages.updated} (${outcome.member.email})`,
      );
      return reply.redirect(listPath(community.slug), 303);
    },
  );
};
