// The rules of adding and deactivating members: normalize the fields, upsert the profile by e-mail, audit the
// change and queue its webhooks in the same transaction.
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.service.js';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { refreshFragments } from '../fragments/fragment-refresh.js';
import type { Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { toStored } from '../lib/timestamps.js';
import type { SaveResponse } from '../idempotency/save-response.js';
import type { Member } from '../schemas/member.js';
import { toMemberInput, type MemberFields } from './member-input.js';
import { toMember } from './member.mapper.js';
import { deactivateMember, isDeactivatedEmail, upsertMember } from './members.repository.js';
import { enqueue, listeners, outboxSignal } from '../webhooks/webhook-outbox.js';
import type { WebhookEventType } from '../webhooks/webhook-types.js';

/** Who asks: the token's community and id, and the request that carries the change. */
export interface Actor {
  communityId: string;
  tokenId: string;
  requestId: string;
}

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

/** Queues the member's webhook messages inside the change's transaction; returns how many. */
async function announce(
  trx: Kysely<Database>,
  communityId: string,
  type: WebhookEventType,
  member: Member,
  at: string,
): Promise<number> {
  const hooks = await listeners(trx, communityId);
  return hooks.length === 0 ? 0 : enqueue(trx, communityId, hooks, [{ type, data: member }], at);
}

/** `localChanges` counts this process's commits, so its answer cache drops what a member change touched. */
export function createMembersService(
  db: Kysely<Database>,
  clock: Clock,
  localChanges: { count: number } = { count: 0 },
) {
  return {
    async add(
      actor: Actor,
      fields: MemberFields,
      saveResponse?: SaveResponse<AddMemberOutcome>,
    ): Promise<AddMemberOutcome> {
      const input = toMemberInput(fields);
      const at = toStored(clock());
      let sent = 0;
      const outcome = await db.transaction().execute(async (trx) => {
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
          at,
        });
        const outcome = { created, reactivated, member: toMember(row) };
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
        sent = await announce(
          trx,
          actor.communityId,
          created ? 'member.created' : 'member.updated',
          outcome.member,
          at,
        );
        if (saveResponse) await saveResponse(trx, outcome);
        return outcome;
      });
      localChanges.count++;
      if (sent > 0) outboxSignal.notify();
      return outcome;
    },

    /** Deactivates the member; what they wrote or host stays as it is. Deactivating twice changes nothing. */
    async deactivate(actor: Actor, memberId: string): Promise<DeactivateOutcome> {
      const at = toStored(clock());
      let sent = 0;
      const outcome = await db.transaction().execute(async (trx) => {
        const done = await deactivateMember(trx, actor.communityId, memberId, at);
        if (!done) throw notFound(`Member '${memberId}'`);
        const outcome = { already: done.already, member: toMember(done.row) };
        if (done.already) return outcome;
        await recordAudit(trx, {
          communityId: actor.communityId,
          tokenId: actor.tokenId,
          action: 'member.deactivated',
          subjectId: memberId,
          detail: { email: done.row.email },
          requestId: actor.requestId,
          at,
        });
        await refreshFragments(trx, actor.communityId, { profiles: [memberId] });
        sent = await announce(trx, actor.communityId, 'member.deactivated', outcome.member, at);
        return outcome;
      });
      localChanges.count++;
      if (sent > 0) outboxSignal.notify();
      return outcome;
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
