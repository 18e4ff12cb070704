// Sends an answer assembled from fragments: its bytes as they are, its ETag, and 304 when the client holds it.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Answer } from '../fragments/splice.js';
import { etagFor } from './hosted-mode.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** True when an `If-None-Match` list holds `etag` (weak forms compare equal, as RFC 9110 says for GET). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** True when an `If-Match` list holds `etag` by strong comparison (RFC 9110: a weak tag never matches), or is `*`. */
export function ifMatchHolds(ifMatch: string, etag: string): boolean {
  if (ifMatch.trim() === '*') return true;
  return ifMatch.split(',').some((candidate) => candidate.trim() === etag);
}

export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer): FastifyReply {
  const etag = etagFor(request, answer.etag);
  reply.header('etag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(answer.body);
}

/**
 * A by-id route's own `onRequest` hook (it runs after the limiter, authentication and the scope check): the one
 * exit of a record by id, before parsing, validation and the handler. `peek` answers from the answer cache or,
 * on a miss, reads the record (SQLite: synchronously, on this same short path; PostgreSQL: in the batch of this
 * turn of the event loop). A record it does not find goes on to them and leaves through the handler as a 404 (or a
 * 400 for an id validation refuses: no such id is ever stored). Requests announcing a body take the ordinary
 * path, which reads and judges it.
 */
export function earlyAnswer(
  peek: (request: FastifyRequest) => Answer | undefined | Promise<Answer | undefined>,
): onRequestHookHandler {
  return (request, reply, done) => {
    const { headers } = request;
    if (
      request.principal === null ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined
    )
      return done();
    const found = peek(request);
    if (found === undefined) return done();
    if (!(found instanceof Promise)) return void sendAnswer(request, reply, found);
    // A failed change check fails the request as the handler's read would, through the error handler, at once.
    found.then((answer) => (answer === undefined ? done() : void sendAnswer(request, reply, answer)), done);
  };
}
