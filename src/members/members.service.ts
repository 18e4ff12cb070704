// The rules of adding and deactivating members: normalize the fields, upsert the profile by e-mail, audit the
// change and queue its webhooks, all through the one write runner.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { toPage, type Page } from '../lib/pagination.js';
import { newUuid } from '../lib/ids.js';
import type { SaveResponse } from '../idempotency/save-response.js';
import type { Member } from '../schemas/member.js';
import type { Actor } from '../writes/actor.js';
import type { WriteRunner } from '../writes/write-runner.js';
import { toMemberInput, type MemberFields } from './member-input.js';
import { toMember } from './member.mapper.js';
import { deactivateMember, isDeactivatedEmail, upsertMember } from './members.repository.js';
import { findMember, listMembers, type MemberListFilter } from './members.reads.js';

export interface AddMemberOutcome {
  created: boolean;
  /** The e-mail belonged to a deactivated member, whom this add reactivated. */
  reactivated: boolean;
  member: Member;
}

export interface DeactivateOutcome {
  /** The member was deactivated before this call (nothing changed). */
  already: boolean;
  member: Member;
}

export function createMembersService(writes: WriteRunner, db: Kysely<Database>) {
  return {
    /** Members in e-mail order, searched by name or e-mail (the console's list). */
    async list(
      communityId: string,
      filter: Omit<MemberListFilter, 'limit' | 'offset'> & { page: number; per_page: number },
    ): Promise<Page<Member>> {
      const { rows, total } = await listMembers(db, communityId, {
        ...filter,
        limit: filter.per_page,
        offset: filter.page * filter.per_page,
      });
      return toPage(filter, total, rows.map(toMember));
    },

    /**
     * Reactivates a deactivated member: adding their e-mail again, as the API's add does, with the name they have.
     */
    async reactivate(actor: Actor, memberId: string): Promise<AddMemberOutcome> {
      const row = await findMember(db, actor.communityId, memberId);
      if (!row?.email) throw notFound(`Member '${memberId}'`);
      return this.add(actor, { email: row.email, full_name: toMember(row).full_name ?? row.email });
    },

    add(actor: Actor, fields: MemberFields, saveResponse?: SaveResponse<AddMemberOutcome>): Promise<AddMemberOutcome> {
      const input = toMemberInput(fields);
      return writes.run(actor, async (trx, change) => {
        const reactivated = await isDeactivatedEmail(trx, actor.communityId, input.emailKey);
        const { row, created } = await upsertMember(trx, {
          communityId: actor.communityId,
          newId: newUuid(),
          email: input.email,
          emailKey: input.emailKey,
          firstName: input.firstName,
          lastName: input.lastName,
          preferredName: input.fullName,
          avatar: input.avatar,
          at: change.at,
        });
        const outcome = { created, reactivated, member: toMember(row) };
        const action = created ? 'member.created' : 'member.updated';
        await change.audit(action, row.id, { email: row.email });
        // The member's profile may be an event's host or a post's author: its fragment is rewritten with it.
        await change.refresh({ profiles: [row.id] });
        await change.announce([{ type: action, data: outcome.member }]);
        if (saveResponse) await saveResponse(trx, outcome);
        return outcome;
      });
    },

    /** Deactivates the member; what they wrote or host stays as it is. Deactivating twice changes nothing. */
    deactivate(actor: Actor, memberId: string): Promise<DeactivateOutcome> {
      return writes.run(actor, async (trx, change) => {
        const done = await deactivateMember(trx, actor.communityId, memberId, change.at);
        if (!done) throw notFound(`Member '${memberId}'`);
        const outcome = { already: done.already, member: toMember(done.row) };
        if (done.already) {
          change.unchanged();
          return outcome;
        }
        await change.audit('member.deactivated', memberId, { email: done.row.email });
        await change.refresh({ profiles: [memberId] });
        await change.announce([{ type: 'member.deactivated', data: outcome.member }]);
        return outcome;
      });
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
