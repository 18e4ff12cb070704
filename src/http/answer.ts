// Sends an answer assembled from fragments: its bytes as they are, its ETag, and 304 when the client holds it.
import type { FastifyReply, FastifyRequest } from 'fastify';
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
