// Member set rows and their members become the API's badge or group record here and nowhere else.
import { toWire } from '../lib/timestamps.js';
import type { MemberSetKind } from './member-set-kinds.js';
import type { MemberRow, MemberSetRow } from './member-sets.repository.js';

/** One member on the wire: `assigned_at` for a badge's holder, `added_at` for a group's member. */
export type MemberRecord<K extends MemberSetKind> = {
  profile_id: string;
  chat_user_id: string | null;
} & Record<K['sinceColumn'], string>;

/** The badge or group record (the `Badge` and `Group` schemas). */
export interface MemberSetRecord<K extends MemberSetKind> {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  members_count: number;
  members: MemberRecord<K>[];
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The set with its members (rows of this set, in any order), by since, then profile id, compared as the stored text
 * is: the same order on both stores.
 */
export function toMemberSet<K extends MemberSetKind>(
  kind: K,
  row: MemberSetRow,
  members: readonly MemberRow<K>[],
): MemberSetRecord<K> {
  const since = (member: MemberRow<K>): string => member[kind.sinceColumn as K['sinceColumn']];
  const ordered = [...members].sort((a, b) => compare(since(a), since(b)) || compare(a.profile_id, b.profile_id));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    members_count: ordered.length,
    members: ordered.map(
      (member) =>
        ({
          profile_id: member.profile_id,
          chat_user_id: member.chat_user_id,
          [kind.sinceColumn]: toWire(since(member)),
        }) as MemberRecord<K>,
    ),
  };
}

/** Sets with their members, the members read for all of them at once. */
export function toMemberSets<K extends MemberSetKind>(
  kind: K,
  rows: readonly MemberSetRow[],
  members: readonly MemberRow<K>[],
): MemberSetRecord<K>[] {
  const bySet = new Map<string, MemberRow<K>[]>();
  for (const entry of members) {
    const setId = entry[kind.setColumn as K['setColumn']];
    const list = bySet.get(setId);
    if (list) list.push(entry);
    else bySet.set(setId, [entry]);
  }
  return rows.map((row) => toMemberSet(kind, row, bySet.get(row.id) ?? []));
}
