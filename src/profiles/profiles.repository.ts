// SQL for profiles (members, hosts, speakers, authors).
import type { Kysely, Selectable } from 'kysely';
import type { Database, ProfilesTable } from '../db/database.js';

export type ProfileRow = Selectable<ProfilesTable>;

/** Profiles by id within one community, as a map. */
export async function profilesByIds(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<Map<string, ProfileRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('profiles')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
