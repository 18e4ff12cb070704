// The rules of retrieving and listing calendar events: filters, their defaults, and order. Answers come
// assembled from fragments (src/fragments); this file decides which records and in what order.
import type { HotStatements } from '../db/hot-statements.js';
import { AppError, notFound } from '../errors.js';
import type { FragmentReader } from '../fragments/fragment-reader.js';
import type { Answer } from '../fragments/splice.js';
import type { Clock } from '../lib/clock.js';
import { offsetOf } from '../lib/pagination.js';
import { epochOfStored, parseInstant, toStored } from '../lib/timestamps.js';
import { countEventsMatching, nextEventBoundary, readEventPage, type EventFilter } from './events.reads.js';
import type { EventListQuery } from './events.schemas.js';

const DAY_MS = 86_400_000;

/** The UTC bounds of the calendar day of `value` in its own offset (UTC when it has none). */
function dayBounds(value: string): { from: string; to: string } {
  const parsed = parseInstant(value);
  if (!parsed) {
    throw new AppError(
      'invalid_parameter',
      "Invalid parameter 'date_filter': expected an ISO 8601 date or date-time.",
      [{ field: 'date_filter', message: 'must be an ISO 8601 date or date-time' }],
    );
  }
  const offsetMs = parsed.offsetMinutes * 60_000;
  const localMidnight = Math.floor((parsed.epochMs + offsetMs) / DAY_MS) * DAY_MS;
  const from = localMidnight - offsetMs;
  return { from: toStored(from), to: toStored(from + DAY_MS) };
}

export function createEventsService(reader: FragmentReader, hot: HotStatements, clock: Clock) {
  return {
    /** The event's answer when the answer cache holds it, once a change check in flight has answered (`earlyAnswer`). */
    peek: (communityId: string, id: string): Answer | undefined | Promise<Answer | undefined> =>
      reader.peek('event', communityId, id, clock()),

    async get(communityId: string, id: string): Promise<Answer> {
      const answer = await reader.one('event', communityId, id, clock());
      if (!answer) throw notFound(`Calendar event '${id}'`);
      return answer;
    },

    async list(communityId: string, query: EventListQuery): Promise<Answer> {
      const now = clock();
      const directory = await reader.directory(communityId);
      const filter: EventFilter = {
        status: query.status ?? 'published',
        publishToSite: query.published_to_site,
        isUnlisted: query.is_unlisted,
        feedId: query.feed_id,
      };
      if (filter.feedId !== undefined) {
        const feed = directory.feeds.get(filter.feedId);
        if (!feed || feed.is_archived) throw notFound(`Feed '${filter.feedId}'`);
      }
      // No event lasts longer than the community's longest, so a time bound on the end is a seek on the start.
      const span = directory.maxEventSpanMs;
      let direction: 'asc' | 'desc' = 'asc';
      let timeFilter: 'upcoming' | 'past' | null = null;
      if (query.date_filter !== undefined) {
        const { from, to } = dayBounds(query.date_filter);
        Object.assign(filter, { startBefore: to, overlapFrom: from, startFrom: toStored(epochOfStored(from) - span) });
      } else if (query.time_filter === 'upcoming') {
        Object.assign(filter, { endsAfter: toStored(now), startFrom: toStored(now - span) });
        timeFilter = 'upcoming';
      } else if (query.time_filter === 'past') {
        filter.startBefore = toStored(now);
        direction = 'desc';
        timeFilter = 'past';
      }
      const key = [
        'E',
        communityId,
        filter.status,
        query.published_to_site,
        query.is_unlisted,
        query.feed_id,
        query.date_filter ?? query.time_filter,
        query.page,
        query.per_page,
      ].join('|');
      // An answer that time changes is good from now until the next event ends (upcoming) or starts (past).
      const valid = timeFilter
        ? async () => {
            const boundary = await nextEventBoundary(hot, communityId, filter.status, timeFilter, toStored(now));
            return { from: now, until: boundary === null ? Infinity : Math.floor(epochOfStored(boundary)) };
          }
        : undefined;
      const offset = offsetOf(query);
      // Counted only when the answer is not cached: the count walks every matching index entry.
      const load = async () => {
        const total = await countEventsMatching(hot, communityId, filter);
        const rows =
          offset < total ? await readEventPage(hot, communityId, filter, direction, query.per_page, offset) : [];
        return { facts: { page: query.page, per_page: query.per_page, total }, rows };
      };
      return reader.page(key, communityId, now, load, valid);
    },

    /**
     * The events of a status overlapping [from, to) (stored timestamps), start ascending, at most `limit`: the
     * console's month view, read as `date_filter` reads one day.
     */
    async within(
      communityId: string,
      bounds: { from: string; to: string },
      status: string,
      limit: number,
    ): Promise<Answer> {
      const now = clock();
      const directory = await reader.directory(communityId);
      const filter: EventFilter = {
        status,
        startBefore: bounds.to,
        overlapFrom: bounds.from,
        startFrom: toStored(epochOfStored(bounds.from) - directory.maxEventSpanMs),
      };
      const key = ['R', communityId, status, bounds.from, bounds.to, limit].join('|');
      const load = async () => {
        const total = await countEventsMatching(hot, communityId, filter);
        const rows = total > 0 ? await readEventPage(hot, communityId, filter, 'asc', limit, 0) : [];
        return { facts: { page: 0, per_page: limit, total }, rows };
      };
      return reader.page(key, communityId, now, load);
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
