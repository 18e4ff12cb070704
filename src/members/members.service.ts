// The rules of adding a member: normalize the fields, upsert the profile by e-mail, audit the change.
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
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

export function createMembersService(db: Kysely<Database>, clock: () => number) {
  return {
    async add(actor: Actor, fields: MemberFields, withinChange?: WithinChange): Promise<AddMemberOutcome> {
      const input = toMemberInput(fields);
      const at = toStored(clock());
      return db.transaction().execute(async (trx) => {
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
        if (withinChange) await withinChange(trx, outcome);
        return outcome;
      });
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
