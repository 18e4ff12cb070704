// SQL of the Luma pull: events found by the partner platform's id, and the hosts an event has now.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { EventRow } from '../events/events.repository.js';

/** The community's events that carry one of these partner ids (the oldest id first when several do). */
export async function eventsByPartnerIds(
  db: Kysely<Database>,
  communityId: string,
  partnerIds: readonly string[],
): Promise<Map<string, EventRow>> {
  const found = new Map<string, EventRow>();
  for (let i = 0; i < partnerIds.length; i += 500) {
    const rows = await db
      .selectFrom('calendar_events')
      .selectAll()
      .where('community_id', '=', communityId)
      .where('partner_event_id', 'in', partnerIds.slice(i, i + 500))
      .orderBy('id')
      .execute();
    for (const row of rows)
      if (row.partner_event_id && !found.has(row.partner_event_id)) found.set(row.partner_event_id, row);
  }
  return found;
}

export async function eventById(db: Kysely<Database>, communityId: string, id: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('calendar_events')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The event's hosts, in their order. */
export async function hostIdsOf(db: Kysely<Database>, communityId: string, eventId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('event_profiles')
    .select('profile_id')
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('role', '=', 'host')
    .orderBy('position')
    .execute();
  return rows.map((row) => row.profile_id);
}

/** Profile ids by lowercased e-mail. */
export async function profilesByEmail(
  db: Kysely<Database>,
  communityId: string,
  emailKeys: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < emailKeys.length; i += 500) {
    const rows = await db
      .selectFrom('profiles')
      .select(['id', 'email_key'])
      .where('community_id', '=', communityId)
      .where('email_key', 'in', emailKeys.slice(i, i + 500))
      .execute();
    for (const row of rows) if (row.email_key) found.set(row.email_key, row.id);
  }
  return found;
}
