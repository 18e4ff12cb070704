// Strong ETags on successful GET answers that were not assembled from fragments (search), and 304 when
// `If-None-Match` already holds the same body. Fragment answers carry their version ETag already (answer.ts);
// either is marked per field-name mode (hosted-mode.ts).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { etagMatches } from './answer.js';
import { etagFor } from './hosted-mode.js';

export function registerEtag(app: FastifyInstance): void {
  // A callback hook, not an async one: every admin answer passes here, and most leave at the first test.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string' || reply.hasHeader('etag'))
      return done(null, payload);
    const etag = etagFor(request, `"${createHash('sha1').update(payload).digest('base64url')}"`);
    reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      return done(null, '');
    }
    done(null, payload);
  });
}
