// SQL for groups and their members (group_members): the shared member-set SQL bound to the group tables.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { groupKind } from '../member-sets/member-set-kinds.js';
import {
  changeMembers as changeSetMembers,
  countSets,
  findSet,
  lockSet,
  membersOf as setMembersOf,
  pageSets,
  setsByIds,
  type MemberRow,
  type MemberSetRow,
} from '../member-sets/member-sets.repository.js';

export type GroupRow = MemberSetRow;
export type GroupMemberRow = MemberRow<typeof groupKind>;

export const findGroup = (db: Kysely<Database>, communityId: string, id: string): Promise<GroupRow | undefined> =>
  findSet(db, groupKind, communityId, id);

/** The groups among `ids` the community holds. */
export const groupsByIds = (db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<GroupRow[]> =>
  setsByIds(db, groupKind, communityId, ids);

/** The group row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export const lockGroup = (
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  id: string,
): Promise<GroupRow | undefined> => lockSet(db, dialect, groupKind, communityId, id);

export const countGroups = (db: Kysely<Database>, communityId: string): Promise<number> =>
  countSets(db, groupKind, communityId);

/** One page of groups by name, then id, both byte by byte (the same order on both stores). */
export const pageGroups = (
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  limit: number,
  offset: number,
): Promise<GroupRow[]> => pageSets(db, dialect, groupKind, communityId, limit, offset);

/** The members of these groups, in no order (the mapper orders them, the same on both stores). */
export const membersOf = (
  db: Kysely<Database>,
  communityId: string,
  groupIds: readonly string[],
): Promise<GroupMemberRow[]> => setMembersOf(db, groupKind, communityId, groupIds);

/** Adds and removes members of the group, and moves its updated_at. */
export const changeMembers = (
  db: Kysely<Database>,
  communityId: string,
  groupId: string,
  change: { added: readonly string[]; removed: readonly string[]; at: string },
): Promise<void> => changeSetMembers(db, groupKind, communityId, groupId, change);
