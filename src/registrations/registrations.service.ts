// The rules of registering for a calendar event: the person becomes a member as adding a member makes them, is
// registered once, the event's count follows its registrations, and events that trigger webhooks announce each
// change in the hosted product's payload, all in one change of the write runner.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { AppError, notFound } from '../errors.js';
import { lockEvent } from '../events/event-writes.repository.js';
import type { EventRow } from '../events/events.repository.js';
import type { SaveResponse } from '../idempotency/save-response.js';
import { newUuid } from '../lib/ids.js';
import { offsetOf, toPage, type Page, type PageRequest } from '../lib/pagination.js';
import { epochOfStored, toWire } from '../lib/timestamps.js';
import { toMemberInput } from '../members/member-input.js';
import { toMember } from '../members/member.mapper.js';
import { profilesByIds, type ProfileRow } from '../profiles/profiles.repository.js';
import type { Actor } from '../writes/actor.js';
import type { Change, WriteRunner } from '../writes/write-runner.js';
import { registrationMessage, type RegistrationAction } from './registration-messages.js';
import type { Registration, RegisterBody } from './registrations.schemas.js';
import {
  countRegistrations,
  deleteRegistration,
  eventExists,
  eventWasDeleted,
  insertRegistration,
  pageRegistrations,
  registrationOf,
  registrationsTotal,
  upsertRegistrant,
} from './registrations.repository.js';

export interface RegisterOutcome {
  /** False when the member was registered already (nothing of the registration changed). */
  registered: boolean;
  memberCreated: boolean;
  registration: Registration;
}

const toRegistration = (eventId: string, registeredAt: string, row: ProfileRow): Registration => ({
  event_id: eventId,
  registered_at: toWire(registeredAt),
  member: toMember(row),
});

/** Why the event takes no registration now, as an error; none when it does. */
function closedBecause(event: EventRow, at: string): AppError | null {
  if (event.status !== 'published') return new AppError('event_not_published');
  if (!event.enable_registration_button) return new AppError('registration_not_enabled');
  if (epochOfStored(event.occupied_until) <= epochOfStored(at)) return new AppError('event_ended');
  return null;
}

export function createRegistrationsService(db: Kysely<Database>, dialect: StoreDialect, writes: WriteRunner) {
  /** The event, locked for the change (registrations of one event are serialized), or 404. */
  async function lockedEvent(trx: Kysely<Database>, actor: Actor, eventId: string): Promise<EventRow> {
    const event = await lockEvent(trx, dialect, actor.communityId, eventId);
    if (!event) throw notFound(`Calendar event '${eventId}'`);
    return event;
  }

  /** The count follows the registrations, the event's fragment (and ETag) moves, and webhooks are told. */
  async function recount(
    trx: Kysely<Database>,
    change: Change,
    event: EventRow,
    action: RegistrationAction,
    profile: ProfileRow,
  ): Promise<void> {
    await countRegistrations(trx, change.actor.communityId, event.id);
    await change.refresh({ events: [event.id] });
    await change.audit(action, event.id, { member_id: profile.id, email: profile.email });
    if (event.triggers_webhooks) await change.announce([registrationMessage(action, event, profile, change.at)]);
  }

  return {
    register(
      actor: Actor,
      eventId: string,
      body: RegisterBody,
      saveResponse?: SaveResponse<RegisterOutcome>,
    ): Promise<RegisterOutcome> {
      const input = toMemberInput(body);
      return writes.run(actor, async (trx, change) => {
        const event = await lockEvent(trx, dialect, actor.communityId, eventId);
        if (!event) {
          if (await eventWasDeleted(trx, actor.communityId, eventId)) throw new AppError('event_deleted');
          throw notFound(`Calendar event '${eventId}'`);
        }
        const closed = closedBecause(event, change.at);
        if (closed) throw closed;
        const member = await upsertRegistrant(trx, {
          communityId: actor.communityId,
          newId: newUuid(),
          email: input.email,
          emailKey: input.emailKey,
          firstName: input.firstName,
          lastName: input.lastName,
          preferredName: input.fullName,
          at: change.at,
        });
        if (member.created || member.updated) {
          const action = member.created ? 'member.created' : 'member.updated';
          await change.audit(action, member.row.id, { email: member.row.email });
          await change.refresh({ profiles: [member.row.id] });
          await change.announce([{ type: action, data: toMember(member.row) }]);
        }
        const inserted = await insertRegistration(trx, actor.communityId, eventId, member.row.id, change.at);
        const registeredAt =
          inserted ?? (await registrationOf(trx, actor.communityId, eventId, member.row.id)) ?? change.at;
        if (inserted !== undefined) await recount(trx, change, event, 'calendar_event.user_registered', member.row);
        else if (!member.created && !member.updated) change.unchanged();
        const outcome: RegisterOutcome = {
          registered: inserted !== undefined,
          memberCreated: member.created,
          registration: toRegistration(eventId, registeredAt, member.row),
        };
        if (saveResponse) await saveResponse(trx, outcome);
        return outcome;
      });
    },

    /** Removes the member's registration (of any event that exists, ended or not); 404 when there is none. */
    unregister(actor: Actor, eventId: string, memberId: string): Promise<Registration> {
      return writes.run(actor, async (trx, change) => {
        const event = await lockedEvent(trx, actor, eventId);
        const registeredAt = await deleteRegistration(trx, actor.communityId, eventId, memberId);
        const profile = (await profilesByIds(trx, actor.communityId, [memberId])).get(memberId);
        if (registeredAt === undefined || !profile)
          throw notFound(`A registration of member '${memberId}' for calendar event '${eventId}'`);
        await recount(trx, change, event, 'calendar_event.user_unregistered', profile);
        return toRegistration(eventId, registeredAt, profile);
      });
    },

    async list(communityId: string, eventId: string, query: PageRequest): Promise<Page<Registration>> {
      if (!(await eventExists(db, communityId, eventId))) throw notFound(`Calendar event '${eventId}'`);
      const [total, rows] = await Promise.all([
        registrationsTotal(db, communityId, eventId),
        pageRegistrations(db, communityId, eventId, query.per_page, offsetOf(query)),
      ]);
      return toPage(
        query,
        total,
        rows.map((row) => toRegistration(eventId, row.registered_at, row)),
      );
    },
  };
}
export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
