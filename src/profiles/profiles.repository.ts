// SQL for profiles (members, hosts, speakers, authors), and the look-up of profiles by chat user id.
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

/**
 * Profile ids by chat user id (exact). Nothing makes a chat user id unique in a community; when two profiles
 * share one, the smallest profile id is taken, so the answer does not depend on the store's row order.
 */
export async function resolveChatUsers(
  db: Kysely<Database>,
  communityId: string,
  chatUserIds: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (chatUserIds.length === 0) return found;
  const rows = await db
    .selectFrom('profiles')
    .select(['id', 'chat_user_id'])
    .where('community_id', '=', communityId)
    .where('chat_user_id', 'in', [...new Set(chatUserIds)])
    .orderBy('id')
    .execute();
  for (const row of rows) if (row.chat_user_id && !found.has(row.chat_user_id)) found.set(row.chat_user_id, row.id);
  return found;
}
