// Issuing, checking, listing and revoking bearer tokens. Secrets are random, shown once, kept as SHA-256.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { newUuid } from '../lib/ids.js';
import { epochOfStored, nowStored, toStored } from '../lib/timestamps.js';
import type { Scope } from './scopes.js';
import { findTokenByHash, insertToken, listTokens, revokeToken, touchToken } from './tokens.repository.js';

export interface Principal {
  tokenId: string;
  communityId: string;
  scopes: readonly Scope[];
}

const SECRET_PREFIX = 'hth_';
/** `last_used_at` is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/** SHA-256 fits here: the secrets are 256 random bits, so there is nothing to stretch. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function createTokensService(db: Kysely<Database>, clock: () => number = Date.now) {
  const lastTouched = new Map<string, number>();

  return {
    async create(communityId: string, options: { name?: string; scopes: Scope[]; expiresInMs?: number }) {
      const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
      const id = newUuid();
      await insertToken(db, {
        id,
        community_id: communityId,
        name: options.name ?? null,
        secret_hash: hashSecret(secret),
        scopes: options.scopes.join(','),
        created_at: nowStored(),
        expires_at: options.expiresInMs === undefined ? null : toStored(clock() + options.expiresInMs),
        revoked_at: null,
        last_used_at: null,
      });
      return { id, secret };
    },

    /** The principal behind a presented secret, or null when unknown, revoked or expired. */
    async authenticate(secret: string, secretHash: string = hashSecret(secret)): Promise<Principal | null> {
      if (!secret.startsWith(SECRET_PREFIX) || secret.length > 128) return null;
      const token = await findTokenByHash(db, secretHash);
      const now = clock();
      if (!token || token.revoked_at !== null) return null;
      if (token.expires_at !== null && epochOfStored(token.expires_at) <= now) return null;
      const touched = lastTouched.get(token.id) ?? (token.last_used_at ? epochOfStored(token.last_used_at) : 0);
      if (now - touched >= TOUCH_INTERVAL_MS) {
        lastTouched.set(token.id, now);
        await touchToken(db, token.id, toStored(now));
      }
      return { tokenId: token.id, communityId: token.community_id, scopes: token.scopes.split(',') as Scope[] };
    },

    list: (communityId: string) => listTokens(db, communityId),
    revoke: (id: string) => revokeToken(db, id, nowStored()),
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
