// Token pages: create (scopes, name, expiry, field names; the secret shown once, on the page that answers the form),
// list and revoke, through the API's tokens service.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { toWire } from '../lib/timestamps.js';
import { fieldNameModes, type FieldNames } from '../tokens/field-names.js';
import { scopes, type Scope } from '../tokens/scopes.js';
import type { ConsoleDeps } from './console-deps.js';
import { Field, Form, PageParams, SlugParams } from './forms.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, notify } from './session.js';

const DAY = 86_400_000;
/** The lifetimes offered (the command line's --expires-in takes any). */
export const expiries = {
  '': null,
  '1d': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
  '365d': 365 * DAY,
} as const;

const CreateForm = Form({
  name: Field(100),
  scopes: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })]),
  ),
  expires_in: Field(10),
  field_names: Field(10),
});
const TokenParams = Type.Object({ slug: SlugParams.properties.slug, id: Type.String({ maxLength: 64 }) });
const ListQuery = Type.Object(PageParams);

export const tokensRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { tokens }) => {
  const listPath = (slug: string) => `${CONSOLE_PATH}/c/${slug}/tokens`;

  async function listed(communityId: string, pageNumber: number, perPage: number) {
    const rows = (await tokens.list(communityId)).reverse();
    const records = rows.slice(pageNumber * perPage, (pageNumber + 1) * perPage).map((t) => ({
      ...t,
      scopes: t.scopes.split(','),
      created_at: toWire(t.created_at),
      expires_at: toWire(t.expires_at),
      revoked_at: toWire(t.revoked_at),
      last_used_at: toWire(t.last_used_at),
    }));
    const totalPages = Math.ceil(rows.length / perPage);
    return {
      page: pageNumber,
      per_page: perPage,
      total_records: rows.length,
      total_pages: totalPages,
      has_next: pageNumber + 1 < totalPages,
      records,
    };
  }

  const view = { section: 'tokens', scopes, expiries: Object.keys(expiries), fieldNameModes };

  app.get(
    '/c/:slug/tokens',
    { schema: { hide: true, params: SlugParams, querystring: ListQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const list = await listed(community.id, request.query.page, request.query.per_page);
      return page(request, reply, 'tokens', { title: 'Tokens', community, ...view, list, created: null });
    },
  );

  app.post(
    '/c/:slug/tokens',
    { schema: { hide: true, params: SlugParams, body: CreateForm } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const body = request.body;
      const chosen = [body.scopes ?? []].flat();
      const problems: { field: string; message: string }[] = [];
      const unknown = chosen.filter((s) => !(scopes as readonly string[]).includes(s));
      if (chosen.length === 0) problems.push({ field: 'scopes', message: 'choose at least one scope' });
      if (unknown.length > 0) problems.push({ field: 'scopes', message: `unknown scope(s): ${unknown.join(', ')}` });
      const expiry = body.expires_in ?? '';
      if (!(expiry in expiries))
        problems.push({ field: 'expires_in', message: `must be one of: ${Object.keys(expiries).join(', ')}` });
      const fieldNames = body.field_names || 'spec';
      if (!(fieldNameModes as readonly string[]).includes(fieldNames))
        problems.push({ field: 'field_names', message: `must be one of: ${fieldNameModes.join(', ')}` });
      if (problems.length > 0) {
        const list = await listed(community.id, 0, 20);
        const first = problems[0];
        const problem = { message: `Invalid body field '${first?.field}': ${first?.message}.`, details: problems };
        return page(
          request,
          reply,
          'tokens',
          { title: 'Tokens', community, ...view, list, created: null, problem },
          400,
        );
      }
      const lifetime = expiries[expiry as keyof typeof expiries];
      const created = await tokens.create(community.id, {
        name: body.name?.trim() || undefined,
        scopes: [...new Set(chosen)] as Scope[],
        expiresInMs: lifetime ?? undefined,
        fieldNames: fieldNames as FieldNames,
      });
      const list = await listed(community.id, 0, 20);
      return page(
        request,
        reply,
        'tokens',
        { title: 'Tokens', community, ...view, list, created: { ...created, name: body.name?.trim() || null } },
        201,
      );
    },
  );

  app.post(
    '/c/:slug/tokens/:id/revoke',
    { schema: { hide: true, params: TokenParams, body: Form({}) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const token = (await tokens.list(community.id)).find((t) => t.id === request.params.id);
      if (!token) throw new AppError('not_found', `No token '${request.params.id}' in '${community.slug}'.`);
      const revoked = await tokens.revoke(token.id);
      notify(
        request,
        reply,
        revoked
          ? `Token ${token.name ?? token.id} revoked: the API now refuses it.`
          : `Token ${token.name ?? token.id} was already revoked.`,
      );
      return reply.redirect(listPath(community.slug), 303);
    },
  );
};
