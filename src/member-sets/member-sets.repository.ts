// SQL for member sets (badges, groups) and their members, each joined to its profile's chat user id; the kind names
// the tables and columns.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MemberSetTable, Timestamp } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import type { MemberSetKind } from './member-set-kinds.js';

export type MemberSetRow = Selectable<MemberSetTable>;

/** A member of a set of kind K, keyed as its table is (`badge_id` and `assigned_at`, or `group_id` and `added_at`). */
export type MemberRow<K extends MemberSetKind> = Record<K['setColumn'], string> & {
  profile_id: string;
  chat_user_id: string | null;
} & Record<K['sinceColumn'], Timestamp>;

/**
 * The members tables under names only the kind knows at run time: Kysely's types cannot follow them, so their
 * queries go through this loose handle, kept inside this file with typed inputs and outputs.
 */
// biome-ignore lint/suspicious/noExplicitAny: table and column names chosen by the kind; nothing untyped leaves this file
type MembersDb = Kysely<any>;

export function findSet(
  db: Kysely<Database>,
  kind: MemberSetKind,
  communityId: string,
  id: string,
): Promise<MemberSetRow | undefined> {
  return db
    .selectFrom(kind.sets)
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The sets among `ids` the community holds. */
export function setsByIds(
  db: Kysely<Database>,
  kind: MemberSetKind,
  communityId: string,
  ids: readonly string[],
): Promise<MemberSetRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom(kind.sets).selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
}

/** The set's row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export function lockSet(
  db: Kysely<Database>,
  dialect: StoreDialect,
  kind: MemberSetKind,
  communityId: string,
  id: string,
): Promise<MemberSetRow | undefined> {
  let query = db.selectFrom(kind.sets).selectAll().where('community_id', '=', communityId).where('id', '=', id);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function countSets(db: Kysely<Database>, kind: MemberSetKind, communityId: string): Promise<number> {
  const row = await db
    .selectFrom(kind.sets)
    .select((eb) => eb.fn.countAll().as('total'))
    .where('community_id', '=', communityId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of sets by name, then id, both byte by byte (the same order on both stores). */
export function pageSets(
  db: Kysely<Database>,
  dialect: StoreDialect,
  kind: MemberSetKind,
  communityId: string,
  limit: number,
  offset: number,
): Promise<MemberSetRow[]> {
  return db
    .selectFrom(kind.sets)
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy(sql`name collate ${sql.raw(dialect.bytewiseCollation)}`)
    .orderBy(sql`id collate ${sql.raw(dialect.bytewiseCollation)}`)
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The members of these sets, in no order (the mapper orders them, the same on both stores). */
export async function membersOf<K extends MemberSetKind>(
  db: Kysely<Database>,
  kind: K,
  communityId: string,
  setIds: readonly string[],
): Promise<MemberRow<K>[]> {
  if (setIds.length === 0) return [];
  const members: MembersDb = db;
  const rows: unknown[] = await members
    .selectFrom(`${kind.members} as m`)
    .innerJoin('profiles as p', (join) =>
      join.onRef('p.community_id', '=', 'm.community_id').onRef('p.id', '=', 'm.profile_id'),
    )
    .select([`m.${kind.setColumn}`, 'm.profile_id', 'p.chat_user_id', `m.${kind.sinceColumn}`])
    .where('m.community_id', '=', communityId)
    .where(`m.${kind.setColumn}`, 'in', [...new Set(setIds)])
    .execute();
  return rows as MemberRow<K>[];
}

/** Of `profileIds`, those in the set already. */
export async function membersAmong(
  db: Kysely<Database>,
  kind: MemberSetKind,
  communityId: string,
  setId: string,
  profileIds: readonly string[],
): Promise<Set<string>> {
  if (profileIds.length === 0) return new Set();
  const members: MembersDb = db;
  const rows: { profile_id: string }[] = await members
    .selectFrom(kind.members)
    .select('profile_id')
    .where('community_id', '=', communityId)
    .where(kind.setColumn, '=', setId)
    .where('profile_id', 'in', profileIds)
    .execute();
  return new Set(rows.map((row) => row.profile_id));
}

/** Removes, then adds, members of the set (each side skipped when empty), and moves its updated_at. */
export async function changeMembers(
  db: Kysely<Database>,
  kind: MemberSetKind,
  communityId: string,
  setId: string,
  change: { added: readonly string[]; removed: readonly string[]; at: string },
): Promise<void> {
  const members: MembersDb = db;
  if (change.removed.length > 0)
    await members
      .deleteFrom(kind.members)
      .where('community_id', '=', communityId)
      .where(kind.setColumn, '=', setId)
      .where('profile_id', 'in', change.removed)
      .execute();
  if (change.added.length > 0)
    await members
      .insertInto(kind.members)
      .values(
        change.added.map((profile_id) => ({
          community_id: communityId,
          [kind.setColumn]: setId,
          profile_id,
          [kind.sinceColumn]: change.at,
        })),
      )
      .execute();
  await db
    .updateTable(kind.sets)
    .set({ updated_at: change.at })
    .where('community_id', '=', communityId)
    .where('id', '=', setId)
    .execute();
}
