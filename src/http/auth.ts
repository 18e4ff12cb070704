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
    const bearer = bearerOf(request);
    if (!bearer)
      return done(
        new AppError('unauthorized', 'Missing or malformed Authorization header; expected "Bearer <token>".'),
      );
    const known = tokens.known(bearer.secret);
    if (known !== undefined) return done(admit(request, known));
    // A hash already made for this request (the rate limiter's) is reused.
    tokens.authenticate(bearer.secret, bearer.hash).then((principal) => done(admit(request, principal)), done);
  });
}
