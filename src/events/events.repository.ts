// SQL for calendar events and the lists hanging off them (hosts, speakers, tags, published-to).
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { CalendarEventsTable, Database, EventPublicationsTable, TagsTable } from '../db/database.js';
import { readJson } from '../db/json.js';
import { inOrder } from '../lib/in-order.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';

export type EventRow = Selectable<CalendarEventsTable>;

export interface EventCriteria {
  status: string;
  publishToSite?: boolean;
  isUnlisted?: boolean;
  feedId?: string;
  /** Events whose occupied interval overlaps [from, to). */
  overlaps?: { from: string; to: string };
  /** Events still running or ahead: occupied interval ends after this instant. */
  endsAfter?: string;
  /** Events that began before this instant. */
  startsBefore?: string;
}

type EventQuery = SelectQueryBuilder<Database, 'calendar_events', object>;

function whereCriteria(query: EventQuery, communityId: string, c: EventCriteria): EventQuery {
  let q = query.where('calendar_events.community_id', '=', communityId).where('status', '=', c.status);
  if (c.publishToSite !== undefined) q = q.where('publish_to_site', '=', c.publishToSite);
  if (c.isUnlisted !== undefined) q = q.where('is_unlisted', '=', c.isUnlisted);
  if (c.feedId !== undefined) {
    const feedId = c.feedId;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('event_publications')
          .select('event_publications.event_id')
          .whereRef('event_publications.community_id', '=', 'calendar_events.community_id')
          .whereRef('event_publications.event_id', '=', 'calendar_events.id')
          .where('event_publications.feed_id', '=', feedId),
      ),
    );
  }
  if (c.overlaps) {
    const { from, to } = c.overlaps;
    // An event without an end occupies its start instant, which must then lie inside the day.
    q = q.where('start_at', '<', to).where((eb) => eb.or([eb('occupied_until', '>', from), eb('start_at', '>=', from)]));
  }
  if (c.endsAfter !== undefined) q = q.where('occupied_until', '>', c.endsAfter);
  if (c.startsBefore !== undefined) q = q.where('start_at', '<', c.startsBefore);
  return q;
}

export function findEvent(db: Kysely<Database>, communityId: string, id: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('calendar_events')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Events by id (any order). */
export function eventsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<EventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('calendar_events').selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
}

export async function countEvents(db: Kysely<Database>, communityId: string, criteria: EventCriteria): Promise<number> {
  const row = await whereCriteria(db.selectFrom('calendar_events'), communityId, criteria)
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page of events in order. The page's ids come from the index alone (it carries every filtered
 * column), so a deep offset skips index entries rather than rows; then only those rows are read.
 */
export async function listEvents(
  db: Kysely<Database>,
  communityId: string,
  criteria: EventCriteria,
  order: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  const page = await whereCriteria(db.selectFrom('calendar_events'), communityId, criteria)
    .select('id')
    .orderBy('start_at', order)
    .orderBy('id', order)
    .limit(limit)
    .offset(offset)
    .execute();
  if (page.length === 0) return [];
  const ids = page.map((r) => r.id);
  const rows = await db.selectFrom('calendar_events').selectAll().where('community_id', '=', communityId).where('id', 'in', ids).execute();
  return inOrder(ids, rows);
}

export type EventProfileRow = ProfileRow & { event_id: string; role: 'host' | 'speaker' };

export function eventProfiles(db: Kysely<Database>, communityId: string, eventIds: string[]): Promise<EventProfileRow[]> {
  return db
    .selectFrom('event_profiles')
    .innerJoin('profiles', (join) =>
      join.onRef('profiles.community_id', '=', 'event_profiles.community_id').onRef('profiles.id', '=', 'event_profiles.profile_id'),
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

export function tagsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<Selectable<TagsTable>[]> {
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
export async function eventReminders(db: Kysely<Database>, communityId: string, eventIds: string[]): Promise<Map<string, unknown[]>> {
  const rows = await db
    .selectFrom('calendar_events')
    .select(['id', 'reminders_config'])
    .where('community_id', '=', communityId)
    .where('id', 'in', [...new Set(eventIds)])
    .where('reminders_config', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.id, readJson<unknown[]>(row.reminders_config)]));
}
