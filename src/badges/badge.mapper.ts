// Badge rows and their holders become the API's badge record here and nowhere else.
import { toWire } from '../lib/timestamps.js';
import type { Badge } from '../schemas/badge.js';
import type { BadgeHolderRow, BadgeRow } from './badges.repository.js';

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** By assigned_at, then profile id, compared as the stored text is: the same order on both stores. */
const bySince = (a: BadgeHolderRow, b: BadgeHolderRow): number =>
  compare(a.assigned_at, b.assigned_at) || compare(a.profile_id, b.profile_id);

/** The badge with its holders (rows of this badge, in any order). */
export function toBadge(row: BadgeRow, holders: readonly BadgeHolderRow[]): Badge {
  const ordered = [...holders].sort(bySince);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    members_count: ordered.length,
    members: ordered.map((holder) => ({
      profile_id: holder.profile_id,
      chat_user_id: holder.chat_user_id,
      assigned_at: toWire(holder.assigned_at),
    })),
  };
}

/** Badges with their holders, the holders read for all of them at once. */
export function toBadges(rows: readonly BadgeRow[], holders: readonly BadgeHolderRow[]): Badge[] {
  const byBadge = new Map<string, BadgeHolderRow[]>();
  for (const entry of holders) {
    const list = byBadge.get(entry.badge_id);
    if (list) list.push(entry);
    else byBadge.set(entry.badge_id, [entry]);
  }
  return rows.map((row) => toBadge(row, byBadge.get(row.id) ?? []));
}
