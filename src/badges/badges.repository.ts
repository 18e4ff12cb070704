// SQL for badges and the members holding them (badge_members), each joined to its profile's chat user id.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MemberSetTable } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';

export type BadgeRow = Selectable<MemberSetTable>;

export interface BadgeHolderRow {
  badge_id: string;
  profile_id: string;
  chat_user_id: string | null;
  assigned_at: string;
}

export function findBadge(db: Kysely<Database>, communityId: string, id: string): Promise<BadgeRow | undefined> {
  return db
    .selectFrom('badges')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The badges among `ids` the community holds. */
export function badgesByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<BadgeRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('badges').selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
}

/** The badge row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export function lockBadge(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  id: string,
): Promise<BadgeRow | undefined> {
  let query = db.selectFrom('badges').selectAll().where('community_id', '=', communityId).where('id', '=', id);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function countBadges(db: Kysely<Database>, communityId: string): Promise<number> {
  const row = await db
    .selectFrom('badges')
    .select((eb) => eb.fn.countAll().as('total'))
    .where('community_id', '=', communityId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of badges by name, then id, both byte by byte (the same order on both stores). */
export function pageBadges(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  limit: number,
  offset: number,
): Promise<BadgeRow[]> {
  return db
    .selectFrom('badges')
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy(sql`name collate ${sql.raw(dialect.bytewiseCollation)}`)
    .orderBy(sql`id collate ${sql.raw(dialect.bytewiseCollation)}`)
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The holders of these badges, in no order (the mapper orders them, the same on both stores). */
export function holdersOf(
  db: Kysely<Database>,
  communityId: string,
  badgeIds: readonly string[],
): Promise<BadgeHolderRow[]> {
  if (badgeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('badge_members as m')
    .innerJoin('profiles as p', (join) =>
      join.onRef('p.community_id', '=', 'm.community_id').onRef('p.id', '=', 'm.profile_id'),
    )
    .select(['m.badge_id', 'm.profile_id', 'p.chat_user_id', 'm.assigned_at'])
    .where('m.community_id', '=', communityId)
    .where('m.badge_id', 'in', [...new Set(badgeIds)])
    .execute();
}

/** Of `profileIds`, those holding the badge already. */
export async function holding(
  db: Kysely<Database>,
  communityId: string,
  badgeId: string,
  profileIds: readonly string[],
): Promise<Set<string>> {
  if (profileIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('badge_members')
    .select('profile_id')
    .where('community_id', '=', communityId)
    .where('badge_id', '=', badgeId)
    .where('profile_id', 'in', profileIds)
    .execute();
  return new Set(rows.map((row) => row.profile_id));
}

export async function assignBadge(
  db: Kysely<Database>,
  communityId: string,
  badgeId: string,
  profileIds: readonly string[],
  at: string,
): Promise<void> {
  if (profileIds.length === 0) return;
  await db
    .insertInto('badge_members')
    .values(
      profileIds.map((profile_id) => ({ community_id: communityId, badge_id: badgeId, profile_id, assigned_at: at })),
    )
    .execute();
  await db
    .updateTable('badges')
    .set({ updated_at: at })
    .where('community_id', '=', communityId)
    .where('id', '=', badgeId)
    .execute();
}
