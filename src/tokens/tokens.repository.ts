// SQL for API tokens; only hashes of secrets are ever stored.
import type { Kysely } from 'kysely';
import type { Database, TokensTable } from '../db/database.js';

export async function insertToken(db: Kysely<Database>, token: TokensTable): Promise<void> {
  await db.insertInto('tokens').values(token).execute();
}

export function findTokenByHash(db: Kysely<Database>, secretHash: string) {
  return db
    .selectFrom('tokens')
    .select(['id', 'community_id', 'scopes', 'field_names', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('secret_hash', '=', secretHash)
    .executeTakeFirst();
}

export function listTokens(db: Kysely<Database>, communityId: string) {
  return db
    .selectFrom('tokens')
    .select(['id', 'name', 'scopes', 'field_names', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('community_id', '=', communityId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One token of a community with the community it belongs to; never the secret's hash. */
export function findTokenWithCommunity(db: Kysely<Database>, communityId: string, id: string) {
  return db
    .selectFrom('tokens')
    .innerJoin('communities', 'communities.id', 'tokens.community_id')
    .select([
      'tokens.id',
      'tokens.name',
      'tokens.scopes',
      'tokens.field_names',
      'tokens.created_at',
      'tokens.expires_at',
      'tokens.last_used_at',
      'communities.id as community_id',
      'communities.slug as community_slug',
      'communities.name as community_name',
    ])
    .where('tokens.community_id', '=', communityId)
    .where('tokens.id', '=', id)
    .executeTakeFirst();
}

export async function revokeToken(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function touchToken(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
