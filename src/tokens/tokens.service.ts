// Issuing, checking, listing and revoking bearer tokens. Secrets are random, shown once, kept as SHA-256.
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../lib/secret-hash.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { epochOfStored, toStored, toWire } from '../lib/timestamps.js';
import { notFound } from '../errors.js';
import type { ApiKey } from './api-key.schemas.js';
import { storedFieldNames, type FieldNames } from './field-names.js';
import type { Scope } from './scopes.js';
import {
  findTokenByHash,
  findTokenWithCommunity,
  insertToken,
  listTokens,
  revokeToken,
  touchToken,
} from './tokens.repository.js';

export interface Principal {
  tokenId: string;
  communityId: string;
  scopes: readonly Scope[];
  /** The names every answer to this token uses (see http/hosted-names.ts). */
  fieldNames: FieldNames;
}

const SECRET_PREFIX = 'hth_';
/** `last_used_at` is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * A principal is reused this long before its token row is read again: a revocation (by the CLI, or on
 * another process) takes effect within it everywhere. Measured on real time: it bounds staleness, not rules.
 */
const PRINCIPAL_TTL_MS = 1000;
/** Only tokens that authenticated are kept, so random secrets cannot grow the map; past this it starts over. */
const MAX_PRINCIPALS = 10_000;

interface KnownPrincipal {
  principal: Principal;
  expiresAt: number | null;
  lastUsedAt: number;
  /** `performance.now()` past which the entry is read again: a span of real time (PRINCIPAL_TTL_MS), not a date. */
  until: number;
}

/** SHA-256 fits here: the secrets are 256 random bits, so there is nothing to stretch. */
export function createTokensService(db: Kysely<Database>, clock: Clock = systemClock) {
  const lastTouched = new Map<string, number>();
  const known = new Map<string, KnownPrincipal>();

  /** Writes `last_used_at` when the last write is older than the interval. */
  async function touch(tokenId: string, lastUsedAt: number, now: number): Promise<void> {
    const touched = lastTouched.get(tokenId) ?? lastUsedAt;
    if (now - touched < TOUCH_INTERVAL_MS) return;
    lastTouched.set(tokenId, now);
    await touchToken(db, tokenId, toStored(now));
  }

  return {
    async create(
      communityId: string,
      options: { name?: string; scopes: Scope[]; expiresInMs?: number; fieldNames?: FieldNames },
    ) {
      const now = clock();
      const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
      const id = newUuid();
      await insertToken(db, {
        id,
        community_id: communityId,
        name: options.name ?? null,
        secret_hash: hashSecret(secret),
        scopes: options.scopes.join(','),
        field_names: options.fieldNames ?? 'spec',
        created_at: toStored(now),
        expires_at: options.expiresInMs === undefined ? null : toStored(now + options.expiresInMs),
        revoked_at: null,
        last_used_at: null,
      });
      return { id, secret };
    },

    /**
     * The principal of a secret checked within the last second, synchronously, when nothing needs writing;
     * undefined sends the caller to `authenticate`.
     */
    known(secret: string): Principal | null | undefined {
      const cached = known.get(secret);
      if (!cached || performance.now() >= cached.until) return undefined;
      const now = clock();
      if (cached.expiresAt !== null && cached.expiresAt <= now) return null;
      if (now - (lastTouched.get(cached.principal.tokenId) ?? cached.lastUsedAt) >= TOUCH_INTERVAL_MS) return undefined;
      return cached.principal;
    },

    /**
     * Whether the secret authenticated on this process and has not expired, however long ago it was checked
     * (a map lookup: no hash, no query). It only lets the secret past an address's failed-authentication
     * limit; `known` and `authenticate` still decide, and a revoked token leaves the map at its next check.
     */
    knownValid(secret: string): boolean {
      const cached = known.get(secret);
      return cached !== undefined && (cached.expiresAt === null || cached.expiresAt > clock());
    },

    /**
     * The principal behind a presented secret, or null when unknown, revoked or expired. Within a second of
     * its last check a known secret costs a map lookup: no hash, no query.
     */
    async authenticate(secret: string, secretHash?: string): Promise<Principal | null> {
      const now = clock();
      const cached = known.get(secret);
      if (cached && performance.now() < cached.until) {
        if (cached.expiresAt !== null && cached.expiresAt <= now) return null;
        await touch(cached.principal.tokenId, cached.lastUsedAt, now);
        return cached.principal;
      }
      if (!secret.startsWith(SECRET_PREFIX) || secret.length > 128) return null;
      const token = await findTokenByHash(db, secretHash ?? hashSecret(secret));
      if (!token || token.revoked_at !== null) {
        known.delete(secret);
        return null;
      }
      const expiresAt = token.expires_at === null ? null : epochOfStored(token.expires_at);
      const principal: Principal = {
        tokenId: token.id,
        communityId: token.community_id,
        scopes: token.scopes.split(',') as Scope[],
        fieldNames: storedFieldNames(token.field_names),
      };
      const lastUsedAt = token.last_used_at ? epochOfStored(token.last_used_at) : 0;
      if (known.size >= MAX_PRINCIPALS) known.clear();
      known.set(secret, { principal, expiresAt, lastUsedAt, until: performance.now() + PRINCIPAL_TTL_MS });
      if (expiresAt !== null && expiresAt <= now) return null;
      await touch(token.id, lastUsedAt, now);
      return principal;
    },

    /** What `GET /api_key/me` shows of the calling token: never its secret or hash. */
    async describe(principal: Principal): Promise<ApiKey> {
      const row = await findTokenWithCommunity(db, principal.communityId, principal.tokenId);
      if (!row) throw notFound('Token');
      return {
        id: row.id,
        name: row.name,
        field_names: storedFieldNames(row.field_names),
        scopes: row.scopes.split(',') as Scope[],
        community: { id: row.community_id, slug: row.community_slug, name: row.community_name },
        created_at: toWire(row.created_at),
        expires_at: toWire(row.expires_at),
        last_used_at: toWire(row.last_used_at),
      };
    },

    list: (communityId: string) => listTokens(db, communityId),
    /** Revokes a token; this process forgets its principal at once (other processes within PRINCIPAL_TTL_MS). */
    async revoke(id: string): Promise<boolean> {
      const revoked = await revokeToken(db, id, toStored(clock()));
      for (const [secret, entry] of known) if (entry.principal.tokenId === id) known.delete(secret);
      return revoked;
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
