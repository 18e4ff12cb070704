// Request ids: a sane incoming `X-Request-Id` is kept, anything else replaced by a fresh UUID.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const saneId = /^[A-Za-z0-9._:@\-]{1,128}$/;

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && saneId.test(incoming) ? incoming : randomUUID();
}
