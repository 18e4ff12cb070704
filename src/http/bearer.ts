// The request's bearer credential: `Authorization: Bearer <secret>` read once per request, by whichever step
// asks first (the rate limiter, authentication, /metrics), its SHA-256 made once too.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecret } from '../lib/secret-hash.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The presented bearer credential, read from the header once (`bearerOf`); undefined until it is read. */
    bearer: Bearer | null | undefined;
  }
}

/** An `Authorization: Bearer <secret>` credential; its SHA-256 made once, by whichever step needs it first. */
export interface Bearer {
  readonly secret: string;
  hash: string | undefined;
}

/** Every request carries its credential, parsed by the first of the limiter, authentication or /metrics to read it. */
export function decorateBearer(app: FastifyInstance): void {
  app.decorateRequest('bearer', undefined);
}

/** The request's bearer credential, or null when its `Authorization` header holds none. */
export function bearerOf(request: FastifyRequest): Bearer | null {
  let bearer = request.bearer;
  if (bearer === undefined) {
    const header = request.headers.authorization;
    const secret = typeof header === 'string' ? /^Bearer +([^\s]+) *$/i.exec(header)?.[1] : undefined;
    bearer = secret === undefined ? null : { secret, hash: undefined };
    request.bearer = bearer;
  }
  return bearer;
}

/** SHA-256 of the presented secret, computed once per request (the rate limiter keys on it too). */
export function bearerHash(bearer: Bearer): string {
  bearer.hash ??= hashSecret(bearer.secret);
  return bearer.hash;
}
