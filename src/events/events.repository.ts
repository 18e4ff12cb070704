// SQL for calendar events and the lists hanging off them (hosts, speakers, tags, published-to).
import type { Kysely, Selectable } from 'kysely';
import type { CalendarEventsTable, Database, EventPublicationsTable, TagsTable } from '../db/database.js';
import { readJson } from '../db/json.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';

export type EventRow = Selectable<CalendarEventsTable>;

/** Events by id (any order). */
export function eventsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<EventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('calendar_events')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', 'in', ids)
    .execute();
}

export type EventProfileRow = ProfileRow & { event_id: string; role: 'host' | 'speaker' };

export function eventProfiles(
  db: Kysely<Database>,
  communityId: string,
  eventIds: string[],
): Promise<EventProfileRow[]> {
  return db
    .selectFrom('event_profiles')
    .innerJoin('profiles', (join) =>
      join
        .onRef('profiles.community_id', '=', 'event_profiles.community_id')
        .onRef('profiles.id', '=', 'event_profiles.profile_id'),
    )
    .selectAll('profiles')
    .select(['event_profiles.event_id', 'event_profiles.role'])
    .where('event_profiles.community_id', '=', communityId)
    .where('event_profiles.event_id', 'in', eventIds)
    .orderBy('event_profiles.event_id')
    .orderBy('event_profiles.role')
    .orderBy('event_profiles.position')
    .execute();
}

/** Just the ids of those events' hosts, speakers and tags, each list in its order (what an event's fragment holds of them). */
export async function eventListIds(
  db: Kysely<Database>,
  communityId: string,
  eventIds: string[],
): Promise<{
  profiles: { event_id: string; role: string; profile_id: string }[];
  tags: { event_id: string; tag_id: string }[];
}> {
  const profiles = await db
    .selectFrom('event_profiles')
    .select(['event_id', 'role', 'profile_id'])
    .where('community_id', '=', communityId)
    .where('event_id', 'in', eventIds)
    .orderBy('event_id')
    .orderBy('role')
    .orderBy('position')
    .execute();
  const tags = await db
    .selectFrom('event_tags')
    .select(['event_id', 'tag_id'])
    .where('community_id', '=', communityId)
    .where('event_id', 'in', eventIds)
    .orderBy('event_id')
    .orderBy('position')
    .execute();
  return { profiles, tags };
}

export function tagsByIds(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<Selectable<TagsTable>[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('tags').selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
}

export type EventTagRow = Selectable<TagsTable> & { event_id: string };

export function eventTags(db: Kysely<Database>, communityId: string, eventIds: string[]): Promise<EventTagRow[]> {
  return db
    .selectFrom('event_tags')
    .innerJoin('tags', (join) =>
      join.onRef('tags.community_id', '=', 'event_tags.community_id').onRef('tags.id', '=', 'event_tags.tag_id'),
    )
    .selectAll('tags')
    .select('event_tags.event_id')
    .where('event_tags.community_id', '=', communityId)
    .where('event_tags.event_id', 'in', eventIds)
    .orderBy('event_tags.event_id')
    .orderBy('event_tags.position')
    .execute();
}

export function eventPublications(
  db: Kysely<Database>,
  communityId: string,
  eventIds: string[],
): Promise<Selectable<EventPublicationsTable>[]> {
  return db
    .selectFrom('event_publications')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('event_id', 'in', eventIds)
    .orderBy('event_id')
    .orderBy('position')
    .execute();
}

/** The stored reminders of those events that have some, by event id (answered in hosted field-name mode only). */
export async function eventReminders(
  db: Kysely<Database>,
  communityId: string,
  eventIds: string[],
): Promise<Map<string, unknown[]>> {
  const rows = await db
    .selectFrom('calendar_events')
    .select(['id', 'reminders_config'])
    .where('community_id', '=', communityId)
    .where('id', 'in', [...new Set(eventIds)])
    .where('reminders_config', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.id, readJson<unknown[]>(row.reminders_config)]));
}
