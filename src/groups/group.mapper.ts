// Group rows and their members become the API's group record here and nowhere else.
import { toWire } from '../lib/timestamps.js';
import type { Group } from '../schemas/group.js';
import type { GroupMemberRow, GroupRow } from './groups.repository.js';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** By added_at, then profile id, compared as the stored text is: the same order on both stores. */
const bySince = (a: GroupMemberRow, b: GroupMemberRow): number =>
  compare(a.added_at, b.added_at) || compare(a.profile_id, b.profile_id);

/** The group with its members (rows of this group, in any order). */
export function toGroup(row: GroupRow, members: readonly GroupMemberRow[]): Group {
  const ordered = [...members].sort(bySince);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    members_count: ordered.length,
    members: ordered.map((member) => ({
      profile_id: member.profile_id,
      chat_user_id: member.chat_user_id,
      added_at: toWire(member.added_at),
    })),
  };
}

/** Groups with their members, the members read for all of them at once. */
export function toGroups(rows: readonly GroupRow[], members: readonly GroupMemberRow[]): Group[] {
  const byGroup = new Map<string, GroupMemberRow[]>();
  for (const entry of members) {
    const list = byGroup.get(entry.group_id);
    if (list) list.push(entry);
    else byGroup.set(entry.group_id, [entry]);
  }
  return rows.map((row) => toGroup(row, byGroup.get(row.id) ?? []));
}
