// The by-id fast path: a GET of one event or post whose finished answer this process holds leaves from the
// server's request listener, before Fastify builds a request and a reply. It gives what Fastify's path gives
// (status, headers, bytes, the count against the token's limit, the metrics, the request log lines); whatever
// it is not sure of goes on to Fastify untouched, or counted once with the count handed on (a 429 is Fastify's).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import type { Principal } from '../tokens/tokens.service.js';
import type { Answer } from '../fragments/splice.js';
import { etagMatches } from './answer.js';
import { bearerSecretOf } from './auth.js';
import { countedAlready, limitKeys, rateLimitHeaders, type RateLimits } from './rate-limit.js';
import { requestIdFrom } from './request-id.js';
import type { RequestCounter } from './shared-counter.js';
import type { WindowCount } from './window-counter.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** The two by-id routes, ids as their schemas allow them and without percent-encoding; no query string. */
const byId = /^\/admin\/v0\/(posts|calendar_events)\/([A-Za-z0-9_-]{1,64})$/;
const routes = {
  posts: '/admin/v0/posts/:post_id',
  calendar_events: '/admin/v0/calendar_events/:calendar_event_id',
} as const;
const kinds = { posts: 'post', calendar_events: 'event' } as const;

export interface FastPathSources {
  /** A finished answer the cache holds, once any change check in flight has answered (FragmentReader.peekSoon). */
  peek(kind: 'event' | 'post', communityId: string, id: string): Answer | undefined | Promise<Answer | undefined>;
  /** The principal of a secret checked within the last second, when nothing needs writing (TokensService.known). */
  known(secret: string): Principal | null | undefined;
  hashSecret(secret: string): string;
  counter: RequestCounter;
  limits: RateLimits;
  metrics: Metrics;
  /** Where Fastify writes its two request lines (`info`): the fast path writes the same lines there; null when off. */
  requestLog: FastifyBaseLogger | null;
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;
/** The server's request listener: answers what it can, and hands the rest to `fastify`. */
export interface FastPath {
  listener(request: IncomingMessage, response: ServerResponse, fastify: Listener): void;
  /** Answers sent here (each is counted by the answer cache's hits and the request metrics as well). */
  readonly stats: { answers: number };
}

/** What Fastify's `req` log serializer reads from its request, for the same `incoming request` line. */
function loggedRequest(request: IncomingMessage) {
  const { headers, socket } = request;
  return {
    method: request.method,
    url: request.url,
    headers: { 'accept-version': headers['accept-version'] },
    host: headers.host,
    ip: socket.remoteAddress,
    socket,
  };
}

/**
 * It stands aside for anything Fastify's path does more for: a body, CORS (an Origin),
 * a proxy's forwarded address, hosted field names, an unknown or uncached token, and a missing scope.
 */
export function createFastPath(sources: FastPathSources): FastPath {
  const { counter, limits, metrics, requestLog } = sources;
  const stats = { answers: 0 };

  function send(
    request: IncomingMessage,
    response: ServerResponse,
    answer: Answer,
    window: WindowCount,
    route: string,
    started: number,
  ): void {
    const { limit, remaining, reset } = rateLimitHeaders(limits.perSecond, window);
    const id = requestIdFrom(request);
    if (requestLog) requestLog.info({ request_id: id, req: loggedRequest(request) }, 'incoming request');
    // One array in Fastify's order, handed to writeHead: no per-header bookkeeping of setHeader.
    const headers = [
      'x-request-id',
      id,
      'ratelimit-limit',
      String(limit),
      'ratelimit-remaining',
      String(remaining),
      'ratelimit-reset',
      String(reset),
      'etag',
      answer.etag,
    ];
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, answer.etag)) {
      response.writeHead(304, headers);
      response.end();
    } else {
      headers.push('content-type', JSON_TYPE, 'content-length', String(answer.body.length));
      response.writeHead(200, headers);
      response.end(answer.body);
    }
    stats.answers++;
    const elapsedMs = performance.now() - started;
    metrics.observeRequest(route, 'GET', response.statusCode, elapsedMs / 1000);
    if (requestLog) requestLog.info({ request_id: id, res: response, responseTime: elapsedMs }, 'request completed');
  }

  /** Whether it can answer; false hands the request on. */
  function answered(request: IncomingMessage, response: ServerResponse, fastify: Listener): boolean {
    const { headers } = request;
    if (
      request.method !== 'GET' ||
      request.httpVersion !== '1.1' ||
      headers.host === undefined ||
      headers.origin !== undefined
    )
      return false;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const match = byId.exec(request.url ?? '');
    if (!match) return false;
    const secret = bearerSecretOf(headers.authorization);
    const principal = secret === null ? undefined : sources.known(secret);
    if (!principal || principal.fieldNames === 'hosted' || !principal.scopes.includes('read')) return false;
    // The gate on failed authentications, as the limiter reads it (without a proxy, the socket's address).
    const failures = counter.peek(limitKeys.failures(request.socket.remoteAddress));
    if (failures && failures.count >= limits.authFailuresPerSecond) return false;
    const resource = match[1] as keyof typeof routes;
    const found = sources.peek(kinds[resource], principal.communityId, match[2] as string);
    if (found === undefined) return false;
    const started = performance.now();
    const count = (answer: Answer | undefined): void => {
      if (answer === undefined) {
        fastify(request, response);
        return;
      }
      const window = counter.hit(limitKeys.token(secret as string), () =>
        limitKeys.token(sources.hashSecret(secret as string)),
      );
      if (!(window instanceof Promise)) {
        finish(request, response, fastify, answer, window, resource, started);
        return;
      }
      window.then(
        (shared) => finish(request, response, fastify, answer, shared, resource, started),
        () => fastify(request, response),
      );
    };
    // On PostgreSQL the change check is a query: the request waits for it here as it would in Fastify's path.
    if (found instanceof Promise) found.then(count, () => fastify(request, response));
    else count(found);
    return true;
  }

  function finish(
    request: IncomingMessage,
    response: ServerResponse,
    fastify: Listener,
    answer: Answer,
    window: WindowCount,
    resource: keyof typeof routes,
    started: number,
  ): void {
    if (window.count <= limits.perSecond) {
      send(request, response, answer, window, routes[resource], started);
      return;
    }
    // Over the limit: Fastify answers the 429 in the error envelope, from this count.
    countedAlready.set(request, window);
    fastify(request, response);
  }

  return {
    listener(request, response, fastify) {
      if (!answered(request, response, fastify)) fastify(request, response);
    },
    stats,
  };
}
