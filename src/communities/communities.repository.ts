// SQL for communities (tenants).
import type { Kysely } from 'kysely';
import type { CommunitiesTable, Database } from '../db/database.js';

export function findCommunityBySlug(db: Kysely<Database>, slug: string): Promise<CommunitiesTable | undefined> {
  return db.selectFrom('communities').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export function listCommunities(db: Kysely<Database>): Promise<CommunitiesTable[]> {
  return db.selectFrom('communities').selectAll().orderBy('slug').execute();
}

export async function insertCommunity(db: Kysely<Database>, community: CommunitiesTable): Promise<void> {
  await db.insertInto('communities').values(community).execute();
}
