// Unknown routes answer 404; a known path asked with a method it does not serve answers 405 with `Allow`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { sendError } from './error-handler.js';

export type NotFoundHandler = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Sets the root's handler and returns it, so that the admin API can set it in its own scope too: there
 * its hooks run first, so an unknown path or method is authenticated and counted against the caller.
 */
export function registerNotFound(app: FastifyInstance): NotFoundHandler {
  const routes: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    const source = route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+');
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ pattern: new RegExp(`^${source}/?$`), method });
  });

  const handler: NotFoundHandler = (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      return sendError(
        reply,
        request,
        new AppError(
          'method_not_allowed',
          `Method ${request.method} is not allowed here; use ${allowed.join(', ')}.`,
          undefined,
          { allow: allowed.join(', ') },
        ),
      );
    }
    return sendError(reply, request, new AppError('not_found', `No route ${request.method} ${path}.`));
  };
  app.setNotFoundHandler(handler);
  return handler;
}
