// Rate limits of every answer but the probes: per token on the admin API, per client address for failed
// authentication (checked before any token hashing or database work, and passed only by tokens this process
// already knows as valid) and for the public pages.
//
// Hand-written rather than @fastify/rate-limit: the plugin counts in memory or in Redis, and with Redis it
// either fails the request or lets it pass uncounted when Redis is slow or away; it cannot peek at a count
// without adding to it (the failed-authentication gate) nor count by the final status (a 401). What is
// left is one Map lookup and a counter per request in-process (./window-counter.ts) and one script call
// with a deadline when Redis is shared (./shared-counter.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { bearerHash, bearerOf } from './bearer.js';
import { openApiPath } from '../openapi/openapi.js';
import type { RequestCounter } from './shared-counter.js';
import type { WindowCount } from './window-counter.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` for the probes: an orchestrator asking often must never be refused. */
    rateLimit?: false;
  }
}

export interface RateLimits {
  /** Requests per second per token, and per client address on the pages that need no token. */
  perSecond: number;
  /**
   * Failed authentications per second per client address; past it every admin request from there is refused
   * but those of a token this process already knows as valid, which meet their own token's limit.
   */
  authFailuresPerSecond: number;
}

const adminPrefix = '/admin/v0/';

/** The counters' keys. In process a token's key is the secret itself (no hashing); only its SHA-256 leaves for Redis. */
const limitKeys = {
  token: (secretOrHash: string) => `t:${secretOrHash}`,
  failures: (address: string | undefined) => `f:${address}`,
  address: (address: string) => `a:${address}`,
};

/** Each step answers a promise only when the count is shared through Redis. */
export interface RateLimit {
  /** Counts one request and refuses it with 429 past its limit (throws the AppError). */
  limit(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
  /** After a 401: one more failure for the address; the answer shows that limit. */
  countFailure(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
}

function secondsLeft(window: WindowCount | undefined): number {
  return window ? Math.max(1, Math.ceil((window.endsAt - performance.now()) / 1000)) : 1;
}

function setHeaders(reply: FastifyReply, limit: number, window: WindowCount | undefined): number {
  const reset = secondsLeft(window);
  reply.header('ratelimit-limit', limit);
  reply.header('ratelimit-remaining', Math.max(0, limit - (window?.count ?? 0)));
  reply.header('ratelimit-reset', reset);
  return reset;
}

const second = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

function enforce(reply: FastifyReply, limit: number, window: WindowCount): void {
  const reset = setHeaders(reply, limit, window);
  if (window.count > limit) {
    throw new AppError(
      'rate_limited',
      `Rate limit of ${limit} requests per second exceeded; retry in ${second(reset)}.`,
      undefined,
      {
        'retry-after': String(reset),
      },
    );
  }
}

/**
 * `knownValid` says, without hashing or a query, whether a secret already authenticated on this process (the
 * tokens service's memory): one client flooding bad tokens from an address, a NAT's, must not lock out the
 * valid tokens sent from there.
 */
export function createRateLimit(
  counter: RequestCounter,
  limits: RateLimits,
  knownValid: (secret: string) => boolean,
): RateLimit {
  const counted = (
    reply: FastifyReply,
    limit: number,
    count: WindowCount | Promise<WindowCount>,
  ): void | Promise<void> =>
    count instanceof Promise ? count.then((window) => enforce(reply, limit, window)) : enforce(reply, limit, count);

  const limit: RateLimit['limit'] = (request, reply) => {
    if (request.routeOptions.config?.rateLimit === false) return;
    if (!request.url.startsWith(adminPrefix) || request.routeOptions.url === openApiPath) {
      return counted(reply, limits.perSecond, counter.hit(limitKeys.address(request.ip)));
    }
    // The gate reads what this process knows of the address's failures and of the token: no hashing, no round
    // trip. A known token goes on to its own limit and to authentication, which checks it as usual.
    const failures = counter.peek(limitKeys.failures(request.ip));
    const bearer = bearerOf(request);
    if (failures && failures.count >= limits.authFailuresPerSecond && (bearer === null || !knownValid(bearer.secret))) {
      const reset = setHeaders(reply, limits.authFailuresPerSecond, failures);
      throw new AppError(
        'rate_limited',
        `Too many failed authentications from this address (at most ${limits.authFailuresPerSecond} per second); retry in ${second(reset)}.`,
        undefined,
        { 'retry-after': String(reset) },
      );
    }
    // No token: authentication will refuse it, and the refusal is counted against the address.
    if (bearer === null) return void setHeaders(reply, limits.authFailuresPerSecond, failures);
    return counted(
      reply,
      limits.perSecond,
      counter.hit(limitKeys.token(bearer.secret), () => limitKeys.token(bearerHash(bearer))),
    );
  };

  const countFailure: RateLimit['countFailure'] = (request, reply) => {
    const count = counter.hit(limitKeys.failures(request.ip));
    if (count instanceof Promise)
      return count.then((window) => void setHeaders(reply, limits.authFailuresPerSecond, window));
    setHeaders(reply, limits.authFailuresPerSecond, count);
  };

  return { limit, countFailure };
}

/** Counts every request before anything else runs, and every refused authentication after it. */
export function registerRateLimit(app: FastifyInstance, rateLimit: RateLimit): void {
  // Callback hooks: the in-process path stays synchronous, without a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    let pending: void | Promise<void>;
    try {
      pending = rateLimit.limit(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 401) return done(null, payload);
    const pending = rateLimit.countFailure(request, reply);
    if (pending)
      pending.then(
        () => done(null, payload),
        () => done(null, payload),
      );
    else done(null, payload);
  });
}
