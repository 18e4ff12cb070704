// SQL for groups and their members (group_members), each joined to its profile's chat user id.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MemberSetTable } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';

export type GroupRow = Selectable<MemberSetTable>;

export interface GroupMemberRow {
  group_id: string;
  profile_id: string;
  chat_user_id: string | null;
  added_at: string;
}

export function findGroup(db: Kysely<Database>, communityId: string, id: string): Promise<GroupRow | undefined> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The groups among `ids` the community holds. */
export function groupsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<GroupRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('groups').selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
}

/** The group row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export function lockGroup(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  id: string,
): Promise<GroupRow | undefined> {
  let query = db.selectFrom('groups').selectAll().where('community_id', '=', communityId).where('id', '=', id);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function countGroups(db: Kysely<Database>, communityId: string): Promise<number> {
  const row = await db
    .selectFrom('groups')
    .select((eb) => eb.fn.countAll().as('total'))
    .where('community_id', '=', communityId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of groups by name, then id, both byte by byte (the same order on both stores). */
export function pageGroups(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  limit: number,
  offset: number,
): Promise<GroupRow[]> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy(sql`name collate ${sql.raw(dialect.bytewiseCollation)}`)
    .orderBy(sql`id collate ${sql.raw(dialect.bytewiseCollation)}`)
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The members of these groups, in no order (the mapper orders them, the same on both stores). */
export function membersOf(
  db: Kysely<Database>,
  communityId: string,
  groupIds: readonly string[],
): Promise<GroupMemberRow[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('group_members as m')
    .innerJoin('profiles as p', (join) =>
      join.onRef('p.community_id', '=', 'm.community_id').onRef('p.id', '=', 'm.profile_id'),
    )
    .select(['m.group_id', 'm.profile_id', 'p.chat_user_id', 'm.added_at'])
    .where('m.community_id', '=', communityId)
    .where('m.group_id', 'in', [...new Set(groupIds)])
    .execute();
}

/** Adds and removes members of the group, and moves its updated_at. */
export async function changeMembers(
  db: Kysely<Database>,
  communityId: string,
  groupId: string,
  change: { added: readonly string[]; removed: readonly string[]; at: string },
): Promise<void> {
  if (change.removed.length > 0)
    await db
      .deleteFrom('group_members')
      .where('community_id', '=', communityId)
      .where('group_id', '=', groupId)
      .where('profile_id', 'in', change.removed)
      .execute();
  if (change.added.length > 0)
    await db
      .insertInto('group_members')
      .values(
        change.added.map((profile_id) => ({
          community_id: communityId,
          group_id: groupId,
          profile_id,
          added_at: change.at,
        })),
      )
      .execute();
  await db
    .updateTable('groups')
    .set({ updated_at: change.at })
    .where('community_id', '=', communityId)
    .where('id', '=', groupId)
    .execute();
}
