// The callback that stores a keyed request's response inside the transaction of the change it answers.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * Handed to a service by the route of a request with an `Idempotency-Key`; the service calls it inside its
 * change's transaction with what it made, so the stored response commits or rolls back with the change.
 */
export type SaveResponse<T> = (trx: Kysely<Database>, made: T) => Promise<void>;

/** The saver of what a service makes, from the saver of responses and the route's `responseOf`. */
export function saveResponseOf<Made, Response>(
  saveResponse: SaveResponse<Response> | undefined,
  responseOf: (made: Made) => Response,
): SaveResponse<Made> | undefined {
  return saveResponse && ((trx, made) => saveResponse(trx, responseOf(made)));
}
