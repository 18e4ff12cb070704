// The operators' console at /console (issue 41): server-rendered pages (Eta via @fastify/view), forms posted as
// urlencoded (@fastify/formbody) or multipart (@fastify/multipart), a CSRF token on every POST
// (@fastify/csrf-protection), CSS and a little script from the repo (@fastify/static). Every page calls the
// services `buildApp` built for the API.
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toAppError } from '../http/error-handler.js';
import type { ConsoleDeps } from './console-deps.js';
import { contentRoutes } from './content.routes.js';
import { eventsRoutes } from './events.routes.js';
import { healthRoutes } from './health.routes.js';
import { importsRoutes } from './imports.routes.js';
import { membersRoutes } from './members.routes.js';
import { page } from './render.js';
import { CONSOLE_PATH, readSession } from './session.js';
import { signInRoutes } from './sign-in.routes.js';
import { tokensRoutes } from './tokens.routes.js';
import { webhooksRoutes } from './webhooks.routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A console page anyone may open (the sign-in page): no session needed. */
    signedOut?: true;
  }
}

/** Templates and static files live in the repository's console/ folder, two levels above src/console and dist/console. */
const assets = new URL('../../console/', import.meta.url);

/** The largest upload the console takes (an NDJSON file or a Slack export). */
export const UPLOAD_LIMIT_BYTES = 512 * 2 ** 20;

/** The form's token; an upload carries it in its address, its body being streamed to the import unread. */
function csrfTokenOf(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (typeof body?.['_csrf'] === 'string') return body['_csrf'];
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.['_csrf'] === 'string') return query['_csrf'];
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

/** The heading of an error page; the catalog's sentence below it says what happened. */
function headingOf(status: number): string {
  if (status >= 500) return 'Something went wrong';
  if (status === 404) return 'Not found';
  if (status === 403) return 'Refused';
  if (status === 429) return 'Too many attempts';
  return 'Not understood';
}

export async function consolePlugin(app: FastifyInstance, options: ConsoleDeps & { prefix?: string }): Promise<void> {
  // The pages' plugins take the services alone: handed the prefix too, they would mount under it twice.
  const { prefix: _prefix, ...deps } = options;
  app.decorateRequest('operator', null);
  await app.register(fastifyCookie);
  await app.register(fastifyCsrf, {
    cookieKey: 'hearth_csrf',
    cookieOpts: { path: CONSOLE_PATH, httpOnly: true, sameSite: 'strict' },
    getToken: csrfTokenOf,
  });
  await app.register(fastifyFormbody, { bodyLimit: deps.config.bodyLimitBytes });
  await app.register(fastifyMultipart, { limits: { files: 1, fileSize: UPLOAD_LIMIT_BYTES, fields: 10 } });
  await app.register(fastifyView, {
    engine: { eta: new Eta({ cache: true, autoTrim: false }) },
    templates: fileURLToPath(new URL('views', assets)),
    production: true,
  });
  await app.register(fastifyStatic, {
    root: fileURLToPath(new URL('public', assets)),
    prefix: '/static/',
    // A week: the file names change with what they hold only across releases, so no immutable.
    maxAge: 7 * 86_400_000,
  });

  // Failures become a page with the catalog's status, code and sentence: the API's one mapping, shown as HTML.
  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error, deps.store.dialect);
    if (appError.status >= 500) request.log.error({ err: error }, 'console request failed');
    reply.headers(appError.headers);
    return page(
      request,
      reply,
      'error',
      { title: headingOf(appError.status), error: appError, requestId: request.id },
      appError.status,
    );
  });
  app.setNotFoundHandler(async (request, reply) =>
    page(
      request,
      reply,
      'error',
      {
        title: 'Not found',
        error: { status: 404, code: 'not_found', message: `No console page ${request.url.split('?')[0]}.` },
        requestId: request.id,
      },
      404,
    ),
  );

  // Every page but the sign-in page needs a session; changes need the form's CSRF token too.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(`${CONSOLE_PATH}/static/`)) return;
    // Pages open to anyone read no session: the sign-in page, and an import's own pages (they check theirs in memory).
    if (request.routeOptions.config?.signedOut) return;
    await readSession(request, deps.operators);
    if (request.operator) return;
    return reply.header('cache-control', 'no-store').redirect(`${CONSOLE_PATH}/sign-in`, 303);
  });
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    app.csrfProtection(request, reply, done);
  });

  await app.register(signInRoutes, deps);
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const communities = request.operator?.communities ?? [];
    const only = communities[0];
    if (communities.length === 1 && only) return reply.redirect(`${CONSOLE_PATH}/c/${only.slug}/events`, 303);
    return page(request, reply, 'communities', { title: 'Communities', communities });
  });
  await app.register(eventsRoutes, deps);
  await app.register(contentRoutes, deps);
  await app.register(membersRoutes, deps);
  await app.register(tokensRoutes, deps);
  await app.register(webhooksRoutes, deps);
  await app.register(importsRoutes, deps);
  await app.register(healthRoutes, deps);
}
