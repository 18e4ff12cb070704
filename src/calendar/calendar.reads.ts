// The calendar feeds' SQL: the events a feed holds (with each one's SEQUENCE, its fragment's version) and the
// tombstones of events that left the public calendar.
import type { Kysely, Selectable } from 'kysely';
import type { CalendarEventsTable, CalendarTombstonesTable, Database } from '../db/database.js';

/** An event as the feed writes it; `sequence` rises with every change of the event's answer. */
export type CalendarEventRow = Selectable<CalendarEventsTable> & { sequence: number | string | null };
export type TombstoneRow = Selectable<CalendarTombstonesTable>;

/** Which events a feed holds: the list route's filters, as stored bounds. */
export interface CalendarFilter {
  status: string;
  publishToSite?: boolean;
  isUnlisted?: boolean;
  feedId?: string;
  /** occupied_until > endsAfter (upcoming) or >= endsFrom (the public feed's past window). */
  endsAfter?: string;
  endsFrom?: string;
  startBefore?: string;
  /** Date filter: events overlapping [overlapFrom, startBefore). */
  overlapFrom?: string;
  limit: number;
}

export function calendarEvents(
  db: Kysely<Database>,
  communityId: string,
  f: CalendarFilter,
): Promise<CalendarEventRow[]> {
  let query = db
    .selectFrom('calendar_events as e')
    .leftJoin('fragments as fr', (join) =>
      join.onRef('fr.community_id', '=', 'e.community_id').onRef('fr.id', '=', 'e.id').on('fr.kind', '=', 'event'),
    )
    .selectAll('e')
    .select('fr.version as sequence')
    .where('e.community_id', '=', communityId)
    .where('e.status', '=', f.status);
  if (f.publishToSite !== undefined) query = query.where('e.publish_to_site', '=', f.publishToSite);
  if (f.isUnlisted !== undefined) query = query.where('e.is_unlisted', '=', f.isUnlisted);
  if (f.feedId !== undefined) {
    const feedId = f.feedId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('event_publications as p')
          .select('p.event_id')
          .whereRef('p.community_id', '=', 'e.community_id')
          .whereRef('p.event_id', '=', 'e.id')
          .where('p.feed_id', '=', feedId),
      ),
    );
  }
  if (f.endsAfter !== undefined) query = query.where('e.occupied_until', '>', f.endsAfter);
  if (f.endsFrom !== undefined) query = query.where('e.occupied_until', '>=', f.endsFrom);
  if (f.startBefore !== undefined) query = query.where('e.start_at', '<', f.startBefore);
  if (f.overlapFrom !== undefined) {
    const from = f.overlapFrom;
    query = query.where((eb) => eb.or([eb('e.occupied_until', '>', from), eb('e.start_at', '>=', from)]));
  }
  return query.orderBy('e.start_at').orderBy('e.id').limit(f.limit).execute();
}

/** Tombstones of the community removed at or after `since` (of one feed's events when `feedId` is given). */
export async function calendarTombstones(
  db: Kysely<Database>,
  communityId: string,
  feedId: string | null,
  since: string,
): Promise<TombstoneRow[]> {
  const rows = await db
    .selectFrom('calendar_tombstones')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('removed_at', '>=', since)
    .orderBy('start_at')
    .orderBy('event_id')
    .execute();
  return feedId === null ? rows : rows.filter((row) => row.feed_ids.split(',').includes(feedId));
}

/** The community's name and whether a feed of it exists and is not archived (its label then). */
export async function calendarOwner(db: Kysely<Database>, communityId: string, feedId: string | null) {
  const community = await db
    .selectFrom('communities')
    .select(['id', 'name'])
    .where('id', '=', communityId)
    .executeTakeFirst();
  if (!community || feedId === null) return { community, feed: null };
  const feed = await db
    .selectFrom('feeds')
    .select(['id', 'label', 'is_archived'])
    .where('community_id', '=', communityId)
    .where('id', '=', feedId)
    .executeTakeFirst();
  return { community, feed: feed ?? null };
}
