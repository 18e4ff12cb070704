// The `Idempotency-Key` header on POST: its schema, and running a handler so that retries replay its answer.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { requestHash, type IdempotencyService, type StoredResponse } from '../idempotency/idempotency.service.js';

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x20-\\x7E]+$',
    description: 'Optional; 1 to 255 printable ASCII characters. A retry with the same key and body within 24 hours gets the first answer again, with `Idempotent-Replayed: true`.',
  })),
});

/** Saves the response inside the handler's own transaction; null when the request has no key. */
export type SaveResponse = ((trx: Kysely<Database>, response: StoredResponse) => Promise<void>) | null;

/**
 * Runs `work` once per key: a replay answers the stored status and body, a failure releases the claim
 * so that a retry can proceed. The body is hashed after validation, so it is the normalized request.
 */
export async function idempotently<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  service: IdempotencyService,
  communityId: string,
  work: (save: SaveResponse) => Promise<StoredResponse<T>>,
): Promise<T> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return send(reply, await work(null));

  const begun = await service.begin(communityId, key, requestHash(`${request.method} ${request.routeOptions.url ?? ''}`, request.body));
  if (begun.kind === 'replay') {
    reply.header('idempotent-replayed', 'true');
    // The stored body is the `T` that this same handler produced and saved.
    return send(reply, begun.response as StoredResponse<T>);
  }
  const { claim } = begun;
  try {
    return send(reply, await work((trx, response) => service.complete(trx, claim, response)));
  } catch (error) {
    // Releasing is best effort: the original failure is what the client must see.
    await service.release(claim).catch((releaseError: unknown) => request.log.warn({ err: releaseError }, 'could not release idempotency key'));
    throw error;
  }
}

function send<T>(reply: FastifyReply, response: StoredResponse<T>): T {
  reply.code(response.status);
  return response.body;
}
