// Strong ETags on successful GET answers, and 304 when `If-None-Match` already holds the same body.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

export function registerEtag(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = `"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && matches(ifNoneMatch, etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      return '';
    }
    return payload;
  });
}
