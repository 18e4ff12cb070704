// The two kinds of member set (migration 015): badges and groups, told apart only by their tables' and columns' names.

/** A badge: held by members (badge_members) since `assigned_at`. */
export const badgeKind = {
  sets: 'badges',
  members: 'badge_members',
  setColumn: 'badge_id',
  sinceColumn: 'assigned_at',
} as const;

/** A group: its members (group_members) in it since `added_at`. */
export const groupKind = {
  sets: 'groups',
  members: 'group_members',
  setColumn: 'group_id',
  sinceColumn: 'added_at',
} as const;

export type MemberSetKind = typeof badgeKind | typeof groupKind;
