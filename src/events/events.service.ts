// The rules of retrieving and listing calendar events: filters, their defaults, and order.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError, notFound } from '../errors.js';
import { findFeed } from '../feeds/feeds.repository.js';
import { offsetOf, toPage, type Page } from '../lib/pagination.js';
import { parseInstant, toStored } from '../lib/timestamps.js';
import type { CalendarEvent } from '../schemas/event.js';
import { groupEventLists, toCalendarEvent } from './event.mapper.js';
import {
  countEvents,
  eventProfiles,
  eventPublications,
  eventTags,
  findEvent,
  listEvents,
  type EventCriteria,
  type EventRow,
} from './events.repository.js';
import type { EventListQuery } from './events.schemas.js';

const DAY_MS = 86_400_000;

/** The UTC bounds of the calendar day of `value` in its own offset (UTC when it has none). */
export function dayBounds(value: string): { from: string; to: string } {
  const parsed = parseInstant(value);
  if (!parsed) {
    throw new AppError('invalid_parameter', "Invalid parameter 'date_filter': expected an ISO 8601 date or date-time.", [
      { field: 'date_filter', message: 'must be an ISO 8601 date or date-time' },
    ]);
  }
  const offsetMs = parsed.offsetMinutes * 60_000;
  const localMidnight = Math.floor((parsed.epochMs + offsetMs) / DAY_MS) * DAY_MS;
  const from = localMidnight - offsetMs;
  return { from: toStored(from), to: toStored(from + DAY_MS) };
}

export function createEventsService(db: Kysely<Database>, clock: () => number) {
  async function withLists(communityId: string, rows: EventRow[]): Promise<CalendarEvent[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [profiles, tags, publications] = await Promise.all([
      eventProfiles(db, communityId, ids),
      eventTags(db, communityId, ids),
      eventPublications(db, communityId, ids),
    ]);
    const lists = groupEventLists(profiles, tags, publications);
    return rows.map((row) => toCalendarEvent(row, lists.get(row.id)));
  }

  return {
    async get(communityId: string, id: string): Promise<CalendarEvent> {
      const row = await findEvent(db, communityId, id);
      if (!row) throw notFound(`Calendar event '${id}'`);
      const [event] = await withLists(communityId, [row]);
      if (!event) throw notFound(`Calendar event '${id}'`);
      return event;
    },

    async list(communityId: string, query: EventListQuery): Promise<Page<CalendarEvent>> {
      const criteria: EventCriteria = {
        status: query.status ?? 'published',
        publishToSite: query.published_to_site,
        isUnlisted: query.is_unlisted,
        feedId: query.feed_id,
      };
      let order: 'asc' | 'desc' = 'asc';
      if (query.date_filter !== undefined) {
        criteria.overlaps = dayBounds(query.date_filter);
      } else if (query.time_filter !== undefined) {
        const now = toStored(clock());
        if (query.time_filter === 'upcoming') criteria.endsAfter = now;
        else {
          criteria.startsBefore = now;
          order = 'desc';
        }
      }
      if (criteria.feedId !== undefined) {
        const feed = await findFeed(db, communityId, criteria.feedId);
        if (!feed || feed.is_archived) throw notFound(`Feed '${criteria.feedId}'`);
      }
      const [total, rows] = await Promise.all([
        countEvents(db, communityId, criteria),
        listEvents(db, communityId, criteria, order, query.per_page, offsetOf(query)),
      ]);
      return toPage(query, total, await withLists(communityId, rows));
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
