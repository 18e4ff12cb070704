// Idempotency keys: the first request with a key claims it, its response is kept for 24 hours and
// replayed to retries with the same body. Keys live in the database, so they hold across restarts
// and across several server processes.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { readJson, writeJson } from '../db/json.js';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { epochOfStored, toStored } from '../lib/timestamps.js';
import {
  completeClaim,
  findKey,
  insertClaim,
  purgeExpiredKeys,
  releaseClaim,
  takeOverKey,
  type ClaimRow,
  type IdempotencyRow,
} from './idempotency.repository.js';
import type { SaveResponse } from './save-response.js';

export const KEY_LIFETIME_MS = 24 * 3_600_000;
/**
 * A claim still in flight after this long belongs to a process that died mid-request (the work is one
 * short transaction under a 15 s statement timeout); a retry may then take the key over.
 */
export const IN_FLIGHT_LEASE_MS = 60_000;
const PURGE_INTERVAL_MS = 60_000;
const CLAIM_ATTEMPTS = 3;

export interface StoredResponse<T = unknown> {
  status: number;
  body: T;
}

export type Claim = ClaimRow;

export type Begun = { kind: 'replay'; response: StoredResponse } | { kind: 'claimed'; claim: Claim };

/** JSON with object keys sorted at every depth: equal bodies hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of a request: its operation and canonical body, so one key cannot be reused across either. */
export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${canonicalJson(body)}`)
    .digest('hex');
}

const inFlight = () => new AppError('idempotency_in_flight', undefined, undefined, { 'retry-after': '1' });

export function createIdempotencyService(db: Kysely<Database>, clock: Clock) {
  let lastPurge = Number.NEGATIVE_INFINITY;

  /** Expired keys are ignored anyway; deleting them now and then only keeps the table small. */
  async function purgeIfDue(now: number): Promise<void> {
    if (now - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now;
    await purgeExpiredKeys(db, toStored(now));
  }

  function isReplaceable(row: IdempotencyRow, now: number): boolean {
    if (epochOfStored(row.expires_at) <= now) return true;
    return row.state === 'in_flight' && epochOfStored(row.created_at) + IN_FLIGHT_LEASE_MS <= now;
  }

  return {
    /** Claims `key` for a request with fingerprint `hash`, or answers what a retry gets instead. */
    async begin(communityId: string, key: string, hash: string): Promise<Begun> {
      const now = clock();
      await purgeIfDue(now);
      const claim: Claim = {
        community_id: communityId,
        key,
        request_hash: hash,
        created_at: toStored(now),
        expires_at: toStored(now + KEY_LIFETIME_MS),
      };
      // A row can vanish (released, purged) or be replaced between our statements; look again then.
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        if (await insertClaim(db, claim)) return { kind: 'claimed', claim };
        const row = await findKey(db, communityId, key);
        if (!row) continue;
        if (isReplaceable(row, now)) {
          if (await takeOverKey(db, row, claim)) return { kind: 'claimed', claim };
          continue;
        }
        if (row.request_hash !== hash) throw new AppError('idempotency_key_reused');
        if (row.state !== 'done' || row.response_status === null || row.response_body === null) throw inFlight();
        return {
          kind: 'replay',
          response: { status: row.response_status, body: readJson<unknown>(row.response_body) },
        };
      }
      throw inFlight();
    },

    /** The saver of the response to the claimed request: it writes with the transaction of the work itself. */
    saveResponseFor:
      (claim: Claim): SaveResponse<StoredResponse> =>
      (trx, response) =>
        completeClaim(trx, claim, response.status, writeJson(response.body)),

    release: (claim: Claim) => releaseClaim(db, claim),
  };
}
export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
