// Bearer authentication and scope checks for the admin API. Each route names the scope it needs in
// its config; the principal found here confines every later query to the token's community.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Scope } from '../tokens/scopes.js';
import { hashSecret, type Principal, type TokensService } from '../tokens/tokens.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The secret of an `Authorization: Bearer <secret>` header, or null. */
export function bearerSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match?.[1] ?? null;
}

const hashes = new WeakMap<FastifyRequest, string>();

/** SHA-256 of the presented secret, computed once per request (the rate limiter keys on it too). */
export function bearerHash(request: FastifyRequest, secret: string): string {
  let hash = hashes.get(request);
  if (hash === undefined) {
    hash = hashSecret(secret);
    hashes.set(request, hash);
  }
  return hash;
}

/** The authenticated principal; routes behind `registerAuth` always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthorized');
  return request.principal;
}

export function registerAuth(app: FastifyInstance, tokens: TokensService): void {
  app.decorateRequest('principal', null);

  /** Refuses a missing principal or a missing scope; else the request carries the principal. */
  const admit = (request: FastifyRequest, principal: Principal | null): AppError | undefined => {
    if (!principal) return new AppError('unauthorized', 'The bearer token is unknown, revoked or expired.');
    const needed = request.routeOptions.config.scope;
    if (needed && !principal.scopes.includes(needed)) {
      return new AppError(
        'insufficient_scope',
        `This operation needs the '${needed}' scope; the token has: ${principal.scopes.join(', ')}.`,
      );
    }
    request.principal = principal;
    return undefined;
  };

  // A callback hook: a token seen within the last second is admitted without a promise or a query.
  app.addHook('onRequest', (request, _reply, done) => {
    const secret = bearerSecret(request);
    if (!secret)
      return done(
        new AppError('unauthorized', 'Missing or malformed Authorization header; expected "Bearer <token>".'),
      );
    const known = tokens.known(secret);
    if (known !== undefined) return done(admit(request, known));
    // A hash already made for this request (the rate limiter's) is reused.
    tokens.authenticate(secret, hashes.get(request)).then((principal) => done(admit(request, principal)), done);
  });
}
