// The members a request names by chat user id (the `users` of badge and group writes): each resolved to one profile
// of the community, as an event's `hosts.slack_user_ids` are, or named as a problem of its field.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { FieldProblem } from '../errors.js';
import { resolveChatUsers } from './profiles.repository.js';

export interface NamedMembers {
  /** The profiles named, each once, in the order first named. */
  profileIds: string[];
  /** One per chat user id no profile of the community has (`users.3`). */
  problems: FieldProblem[];
}

export async function membersByChatUser(
  db: Kysely<Database>,
  communityId: string,
  chatUserIds: readonly string[],
  field: string,
): Promise<NamedMembers> {
  const found = await resolveChatUsers(db, communityId, chatUserIds);
  const named = new Set<string>();
  const problems: FieldProblem[] = [];
  chatUserIds.forEach((chatUserId, i) => {
    const profileId = found.get(chatUserId);
    if (profileId === undefined)
      problems.push({
        field: `${field}.${i}`,
        message: `no member with chat user id '${chatUserId}' in this community`,
      });
    else named.add(profileId);
  });
  return { profileIds: [...named], problems };
}
