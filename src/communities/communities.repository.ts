// SQL for communities (tenants).
import type { Kysely, Selectable } from 'kysely';
import type { CommunitiesTable, Database } from '../db/database.js';

/** A community as the CLI and services see it (its kept statistics stay with the read path). */
export type Community = Pick<Selectable<CommunitiesTable>, 'id' | 'slug' | 'name' | 'created_at'>;
const columns = ['id', 'slug', 'name', 'created_at'] as const;

export function findCommunityBySlug(db: Kysely<Database>, slug: string): Promise<Community | undefined> {
  return db.selectFrom('communities').select(columns).where('slug', '=', slug).executeTakeFirst();
}

export function listCommunities(db: Kysely<Database>): Promise<Community[]> {
  return db.selectFrom('communities').select(columns).orderBy('slug').execute();
}

export async function insertCommunity(db: Kysely<Database>, community: Community): Promise<void> {
  await db.insertInto('communities').values(community).execute();
}

/** How many records of each kind a community holds (`hearth demo` and `hearth start` report it). */
export async function countHoldings(db: Kysely<Database>, communityId: string): Promise<Record<string, number>> {
  const tables = ['feeds', 'profiles', 'tags', 'calendar_events', 'posts', 'comments', 'tokens'] as const;
  const counts = await Promise.all(
    tables.map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('community_id', '=', communityId)
        .executeTakeFirstOrThrow(),
    ),
  );
  return Object.fromEntries(tables.map((table, i) => [table, Number(counts[i]?.n ?? 0)]));
}
