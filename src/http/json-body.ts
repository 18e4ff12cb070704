// The JSON body parser: Fastify's own, except that an empty body on a route that takes none is no body.
import type { FastifyInstance } from 'fastify';

/**
 * Clients that send `Content-Type: application/json` on every request (the hosted product's does) send it on a
 * DELETE or a deactivate with an empty body too, which Fastify's parser refuses as not JSON. A route with a body
 * schema still gets that refusal, so an empty create or change answers as before.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) return done(null, undefined);
    return parseJson(request, body, done);
  });
}
