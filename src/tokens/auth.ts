// Bearer authentication and scope checks for the admin API. Each route names the scope it needs in
// its config; the principal found here confines every later query to the token's community.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { bearerOf } from '../http/bearer.js';
import type { Scope } from './scopes.js';
import type { Principal, TokensService } from './tokens.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
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
