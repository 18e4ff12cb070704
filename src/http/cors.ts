// CORS for browser pages that call the API directly, off unless CORS_ORIGINS lists origins (or `*`).
// @fastify/cors answers preflights in its onRequest hook, before rate limits and authentication, which a
// browser's preflight (sent without the Authorization header) would otherwise fail.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    // A list is matched exactly and the matching origin echoed back (with `Vary: Origin`); `*` allows any.
    origin: origins.includes('*') ? '*' : [...origins],
    // Every method a route answers: reads, and the writes (POST, PUT, PATCH with If-Match, DELETE).
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id'],
    // What a page's script may read of an answer besides the simple headers: every header Hearth itself sends.
    exposedHeaders: [
      'Location',
      'ETag',
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
      'X-Idempotent-Replayed',
      'WWW-Authenticate',
    ],
    maxAge: 600,
    // Tokens travel in the Authorization header, never in cookies.
    credentials: false,
    // A bare OPTIONS (no Origin) is answered like a preflight rather than with the plugin's plain-text 400.
    strictPreflight: false,
  });
}
