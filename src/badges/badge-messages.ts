// The webhook message of a badge given to a member, the same whether the API or an import gave it.
import { toMember } from '../members/member.mapper.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';
import { toWire } from '../lib/timestamps.js';
import type { OutgoingEvent } from '../webhooks/webhook-outbox.js';

/** `member.badge_assigned`: the badge (id and name), the member as the API answers members, and the stored time. */
export const badgeAssigned = (
  badge: { id: string; name: string },
  profile: ProfileRow,
  assignedAt: string,
): OutgoingEvent => ({
  type: 'member.badge_assigned',
  data: { badge: { id: badge.id, name: badge.name }, member: toMember(profile), assigned_at: toWire(assignedAt) },
});
