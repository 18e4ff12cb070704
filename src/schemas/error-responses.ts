// Response schema entries for the error statuses a route can answer, all with the one error body.
import { ErrorBody } from './common.js';

const descriptions: Record<number, string> = {
  400: 'Invalid parameter or body',
  401: 'Missing, unknown, revoked or expired token',
  403: 'The token lacks the needed scope',
  404: 'Not found',
  408: 'The request body did not arrive in time (BODY_TIMEOUT_MS); the connection is closed',
  409: 'A request with this Idempotency-Key is in flight',
  412: 'If-Match does not hold the current ETag; nothing was changed',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Idempotency-Key reused with another body',
  429: 'Rate limited',
  500: 'Internal error; the cause is only logged',
  503: 'Database unavailable',
};

export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, { ...ErrorBody, description: descriptions[s] ?? 'Error' }]));
}
