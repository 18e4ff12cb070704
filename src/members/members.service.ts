// The rules of adding a member: normalize the fields, upsert the profile by e-mail, audit the change.
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { refreshFragments } from '../fragments/fragment-refresh.js';
import { newUuid } from '../lib/ids.js';
import { toStored } from '../lib/timestamps.js';
import type { Member } from '../schemas/member.js';
import { toMemberInput, type MemberFields } from './member-input.js';
import { toMember } from './member.mapper.js';
import { upsertMember } from './members.repository.js';

/** Who asks: the token's community and id, and the request that carries the change. */
export interface Actor {
  communityId: string;
  tokenId: string;
  requestId: string;
}

export interface AddMemberOutcome {
  created: boolean;
  member: Member;
}

/** Runs inside the transaction of the change, so what it writes commits or rolls back with the member. */
export type WithinChange = (trx: Kysely<Database>, outcome: AddMemberOutcome) => Promise<void>;

/** `localChanges` counts this process's commits, so its answer cache drops what a member change touched. */
export function createMembersService(db: Kysely<Database>, clock: () => number, localChanges: { count: number } = { count: 0 }) {
  return {
    async add(actor: Actor, fields: MemberFields, withinChange?: WithinChange): Promise<AddMemberOutcome> {
      const input = toMemberInput(fields);
      const at = toStored(clock());
      const outcome = await db.transaction().execute(async (trx) => {
        const { row, created } = await upsertMember(trx, {
          communityId: actor.communityId,
          newId: newUuid(),
          email: input.email,
          emailKey: input.emailKey,
          firstName: input.firstName,
          lastName: input.lastName,
          preferredName: input.fullName,
          avatar: input.avatar,
          at,
        });
        const outcome = { created, member: toMember(row) };
        await recordAudit(trx, {
          communityId: actor.communityId,
          tokenId: actor.tokenId,
          action: created ? 'member.created' : 'member.updated',
          subjectId: row.id,
          detail: { email: row.email },
          requestId: actor.requestId,
          at,
        });
        // The member's profile may be an event's host or a post's author: its fragment is rewritten with it.
        await refreshFragments(trx, actor.communityId, { profiles: [row.id] });
        if (withinChange) await withinChange(trx, outcome);
        return outcome;
      });
      localChanges.count++;
      return outcome;
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
