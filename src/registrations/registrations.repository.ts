// SQL of registrations: the registrant upserted by e-mail (written only when something changes), the registration
// row, the event's count, and the list's pages.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';

export interface Registrant {
  communityId: string;
  /** Used only when the e-mail is new. */
  newId: string;
  email: string;
  emailKey: string;
  firstName: string;
  lastName: string;
  preferredName: string;
  at: string;
}

export interface UpsertedRegistrant {
  row: ProfileRow;
  created: boolean;
  /** An existing member whose name changed or who was deactivated (and is reactivated). */
  updated: boolean;
}

/**
 * The member with this e-mail, as adding a member makes it (insert or update on the unique (community, e-mail)
 * index, atomically on both stores), except that an existing member whose name is already the one given and who
 * is active is left untouched: a second registration of the same person changes nothing of them.
 */
export async function upsertRegistrant(db: Kysely<Database>, r: Registrant): Promise<UpsertedRegistrant> {
  const written = await db
    .insertInto('profiles')
    .values({
      community_id: r.communityId,
      id: r.newId,
      created_at: r.at,
      updated_at: r.at,
      preferred_name: r.preferredName,
      preferred_image_original: null,
      first_name: r.firstName,
      last_name: r.lastName,
      email: r.email,
      email_key: r.emailKey,
      chat_is_admin: false,
      chat_is_bot: false,
    })
    .onConflict((oc) =>
      oc
        .columns(['community_id', 'email_key'])
        .doUpdateSet((eb) => ({
          updated_at: eb.ref('excluded.updated_at'),
          deactivated_at: null,
          preferred_name: eb.ref('excluded.preferred_name'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
        }))
        .where(
          sql<boolean>`(profiles.deactivated_at is not null or coalesce(profiles.first_name, '') <> excluded.first_name or coalesce(profiles.last_name, '') <> excluded.last_name or coalesce(profiles.preferred_name, '') <> excluded.preferred_name)`,
        ),
    )
    .returningAll()
    .executeTakeFirst();
  if (written) return { row: written, created: written.id === r.newId, updated: written.id !== r.newId };
  const row = await db
    .selectFrom('profiles')
    .selectAll()
    .where('community_id', '=', r.communityId)
    .where('email_key', '=', r.emailKey)
    .executeTakeFirstOrThrow();
  return { row, created: false, updated: false };
}

/** Registers the member; the time of the registration, or undefined when they were registered already. */
export async function insertRegistration(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  profileId: string,
  at: string,
): Promise<string | undefined> {
  const row = await db
    .insertInto('event_registrations')
    .values({ community_id: communityId, event_id: eventId, profile_id: profileId, registered_at: at })
    .onConflict((oc) => oc.columns(['community_id', 'event_id', 'profile_id']).doNothing())
    .returning('registered_at')
    .executeTakeFirst();
  return row?.registered_at;
}

export async function registrationOf(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  profileId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('event_registrations')
    .select('registered_at')
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return row?.registered_at;
}

/** Removes the registration; its time, or undefined when the member was not registered. */
export async function deleteRegistration(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  profileId: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('event_registrations')
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('profile_id', '=', profileId)
    .returning('registered_at')
    .executeTakeFirst();
  return row?.registered_at;
}

/** From now on the event's `attendees_count` is its number of registrations. */
export async function countRegistrations(db: Kysely<Database>, communityId: string, eventId: string): Promise<void> {
  await db
    .updateTable('calendar_events')
    .set({
      attendees_from_registrations: true,
      attendees_count: sql<number>`(select count(*) from event_registrations where community_id = ${communityId} and event_id = ${eventId})`,
    })
    .where('community_id', '=', communityId)
    .where('id', '=', eventId)
    .execute();
}

export async function eventExists(db: Kysely<Database>, communityId: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('calendar_events')
    .select('id')
    .where('community_id', '=', communityId)
    .where('id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the community's audit trail holds the deletion of this event (an id never held answers false). */
export async function eventWasDeleted(db: Kysely<Database>, communityId: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('audit_log')
    .select('id')
    .where('community_id', '=', communityId)
    .where('subject_id', '=', eventId)
    .where('action', '=', 'calendar_event.deleted')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function registrationsTotal(db: Kysely<Database>, communityId: string, eventId: string): Promise<number> {
  const row = await db
    .selectFrom('event_registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type RegistrationRow = ProfileRow & { registered_at: string };

/** One page of the event's registrations: by registration time, then member id (a total order). */
export function pageRegistrations(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  limit: number,
  offset: number,
): Promise<RegistrationRow[]> {
  return db
    .selectFrom('event_registrations')
    .innerJoin('profiles', (join) =>
      join
        .onRef('profiles.community_id', '=', 'event_registrations.community_id')
        .onRef('profiles.id', '=', 'event_registrations.profile_id'),
    )
    .selectAll('profiles')
    .select('event_registrations.registered_at')
    .where('event_registrations.community_id', '=', communityId)
    .where('event_registrations.event_id', '=', eventId)
    .orderBy('event_registrations.registered_at')
    .orderBy('event_registrations.profile_id')
    .limit(limit)
    .offset(offset)
    .execute();
}
