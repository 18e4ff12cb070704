// Group rows and their members become the API's group record: the shared member-set mapper bound to groups.
import { groupKind } from '../member-sets/member-set-kinds.js';
import { toMemberSet, toMemberSets } from '../member-sets/member-set.mapper.js';
import type { Group } from '../schemas/group.js';
import type { GroupMemberRow, GroupRow } from './groups.repository.js';

/** The group with its members (rows of this group, in any order), by added_at, then profile id. */
export const toGroup = (row: GroupRow, members: readonly GroupMemberRow[]): Group =>
  toMemberSet(groupKind, row, members);

/** Groups with their members, the members read for all of them at once. */
export const toGroups = (rows: readonly GroupRow[], members: readonly GroupMemberRow[]): Group[] =>
  toMemberSets(groupKind, rows, members);
