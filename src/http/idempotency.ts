// The `Idempotency-Key` header on POST: its schema, and running a handler so that retries replay its answer.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestHash, type IdempotencyService, type StoredResponse } from '../idempotency/idempotency.service.js';
import type { SaveResponse } from '../idempotency/save-response.js';

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Optional; 1 to 255 printable ASCII characters. A retry with the same key and body within 24 hours gets the first answer again, with `Idempotent-Replayed: true` (and, to a token in hosted field-name mode, `X-Idempotent-Replayed: true` too).',
    }),
  ),
});

/**
 * The operation a key is used for: the method and route, and the path's ids when it has any, so that one key sent to
 * two badges is two operations (a route without parameters keeps the fingerprint it always had).
 */
function operationOf(request: FastifyRequest): string {
  const operation = `${request.method} ${request.routeOptions.url ?? ''}`;
  const params = request.params;
  const named = typeof params === 'object' && params !== null && Object.keys(params).length > 0;
  return named ? `${operation} ${JSON.stringify(params)}` : operation;
}

/**
 * Runs `work` once per key: a replay answers the stored status and body, a failure releases the claim
 * so that a retry can proceed. The body is hashed after validation, so it is the normalized request.
 * `work` gets the saver of its response, or undefined when the request has no key.
 */
export async function idempotently<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  service: IdempotencyService,
  communityId: string,
  work: (saveResponse: SaveResponse<StoredResponse<T>> | undefined) => Promise<StoredResponse<T>>,
): Promise<T> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return send(reply, await work(undefined));

  const begun = await service.begin(communityId, key, requestHash(operationOf(request), request.body));
  if (begun.kind === 'replay') {
    reply.header('idempotent-replayed', 'true');
    // The hosted product's documentation names the header with the prefix; its clients read that name.
    if (request.principal?.fieldNames === 'hosted') reply.header('x-idempotent-replayed', 'true');
    // The stored body is the `T` that this same handler produced and saved.
    return send(reply, begun.response as StoredResponse<T>);
  }
  const { claim } = begun;
  try {
    return send(reply, await work(service.saveResponseFor(claim)));
  } catch (error) {
    // Releasing is best effort: the original failure is what the client must see.
    await service
      .release(claim)
      .catch((releaseError: unknown) => request.log.warn({ err: releaseError }, 'could not release idempotency key'));
    throw error;
  }
}

function send<T>(reply: FastifyReply, response: StoredResponse<T>): T {
  reply.code(response.status);
  return response.body;
}
