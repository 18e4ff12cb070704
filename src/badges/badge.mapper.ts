// Badge rows and their holders become the API's badge record: the shared member-set mapper bound to badges.
import { badgeKind } from '../member-sets/member-set-kinds.js';
import { toMemberSet, toMemberSets } from '../member-sets/member-set.mapper.js';
import type { Badge } from '../schemas/badge.js';
import type { BadgeHolderRow, BadgeRow } from './badges.repository.js';

/** The badge with its holders (rows of this badge, in any order), by assigned_at, then profile id. */
export const toBadge = (row: BadgeRow, holders: readonly BadgeHolderRow[]): Badge =>
  toMemberSet(badgeKind, row, holders);

/** Badges with their holders, the holders read for all of them at once. */
export const toBadges = (rows: readonly BadgeRow[], holders: readonly BadgeHolderRow[]): Badge[] =>
  toMemberSets(badgeKind, rows, holders);
