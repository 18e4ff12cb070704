// Request ids: a sane incoming `X-Request-Id` is kept; otherwise this process's random prefix and a counter.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const saneId = /^[A-Za-z0-9._:@-]{1,128}$/;

// 64 random bits per process keep ids unique across processes and restarts; the counter keeps them unique
// within one. Cheaper than a UUID per request: no random bytes and no formatting on the request path.
const prefix = randomBytes(8).toString('hex');
let counter = 0;

/** A fresh id, e.g. `9f3c0a7be21d4c55-1f`: 16 hex digits, a dash, the counter in base 36. */
export function newRequestId(): string {
  return `${prefix}-${(++counter).toString(36)}`;
}

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && saneId.test(incoming) ? incoming : newRequestId();
}
