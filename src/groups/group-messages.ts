// The webhook message of a change of a group's members, the same whether the API or an import changed them.
import type { Group } from '../schemas/group.js';
import type { OutgoingEvent } from '../webhooks/webhook-outbox.js';

/** A member as the message names those who joined or left. */
export interface MemberRef {
  profile_id: string;
  chat_user_id: string | null;
}

const memberRef = (member: MemberRef): MemberRef => ({
  profile_id: member.profile_id,
  chat_user_id: member.chat_user_id,
});

/**
 * `group.members_changed`: the group as GET answers it after the change, and who joined and who left (profile and
 * chat user ids); null when nobody did.
 */
export function groupMembersChanged(before: readonly MemberRef[], after: Group): OutgoingEvent | null {
  const had = new Set(before.map((member) => member.profile_id));
  const has = new Set(after.members.map((member) => member.profile_id));
  const added = after.members.filter((member) => !had.has(member.profile_id));
  const removed = before.filter((member) => !has.has(member.profile_id));
  if (added.length === 0 && removed.length === 0) return null;
  return {
    type: 'group.members_changed',
    data: { group: after, added: added.map(memberRef), removed: removed.map(memberRef) },
  };
}
