// SQL for badges and the members holding them (badge_members): the shared member-set SQL bound to the badge tables.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { badgeKind } from '../member-sets/member-set-kinds.js';
import {
  changeMembers,
  countSets,
  findSet,
  lockSet,
  membersAmong,
  membersOf,
  pageSets,
  setsByIds,
  type MemberRow,
  type MemberSetRow,
} from '../member-sets/member-sets.repository.js';

export type BadgeRow = MemberSetRow;
export type BadgeHolderRow = MemberRow<typeof badgeKind>;

export const findBadge = (db: Kysely<Database>, communityId: string, id: string): Promise<BadgeRow | undefined> =>
  findSet(db, badgeKind, communityId, id);

/** The badges among `ids` the community holds. */
export const badgesByIds = (db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<BadgeRow[]> =>
  setsByIds(db, badgeKind, communityId, ids);

/** The badge row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export const lockBadge = (
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  id: string,
): Promise<BadgeRow | undefined> => lockSet(db, dialect, badgeKind, communityId, id);

export const countBadges = (db: Kysely<Database>, communityId: string): Promise<number> =>
  countSets(db, badgeKind, communityId);

/** One page of badges by name, then id, both byte by byte (the same order on both stores). */
export const pageBadges = (
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  limit: number,
  offset: number,
): Promise<BadgeRow[]> => pageSets(db, dialect, badgeKind, communityId, limit, offset);

/** The holders of these badges, in no order (the mapper orders them, the same on both stores). */
export const holdersOf = (
  db: Kysely<Database>,
  communityId: string,
  badgeIds: readonly string[],
): Promise<BadgeHolderRow[]> => membersOf(db, badgeKind, communityId, badgeIds);

/** Of `profileIds`, those holding the badge already. */
export const holding = (
  db: Kysely<Database>,
  communityId: string,
  badgeId: string,
  profileIds: readonly string[],
): Promise<Set<string>> => membersAmong(db, badgeKind, communityId, badgeId, profileIds);

/** Gives the badge to these members (none holding it yet) and moves its updated_at; no one given changes nothing. */
export async function assignBadge(
  db: Kysely<Database>,
  communityId: string,
  badgeId: string,
  profileIds: readonly string[],
  at: string,
): Promise<void> {
  if (profileIds.length === 0) return;
  await changeMembers(db, badgeKind, communityId, badgeId, { added: profileIds, removed: [], at });
}
