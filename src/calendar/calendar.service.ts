// The rules of the calendar feeds: which events the admin route's filters take, what a public subscription
// holds (published, on the site, not unlisted; upcoming and a bounded past; tombstones of those that left) and
// never holds (drafts, unlisted events, e-mail addresses).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { AppError, notFound } from '../errors.js';
import type { AnswerCache } from '../fragments/answer-cache.js';
import { TOMBSTONE_RETENTION_DAYS } from '../events/event-tombstones.js';
import type { Clock } from '../lib/clock.js';
import { parseInstant, toStored } from '../lib/timestamps.js';
import type { CalendarFeedsService } from './calendar-feeds.service.js';
import { calendarEvents, calendarOwner, calendarTombstones, type CalendarFilter } from './calendar.reads.js';
import type { CalendarQuery } from './calendar.schemas.js';
import { type CalendarDocument, renderCalendar } from './ical-feed.js';

const DAY_MS = 86_400_000;
/** Past events a subscription keeps: those that ended within this many days (counted from midnight UTC). */
export const PUBLIC_PAST_DAYS = 90;
/** The most events one calendar answer holds (the earliest first). */
export const CALENDAR_MAX_EVENTS = 5000;

export interface CalendarAnswer {
  /**
   * A strong ETag made of everything the calendar is written from (the same rows give the same bytes), so that a
   * 304 costs no writing: ical-generator folds lines character by character, most of an answer's time.
   */
  etag: string;
  /** The calendar's bytes: written once per ETag while the answer cache keeps them. */
  body(): Buffer;
}

/**
 * Where written calendars are kept: the answer cache (emptied at every change, and letting go first of what is
 * cheapest to make again, which a calendar of hundreds of events is not).
 */
export type WrittenCalendars = Pick<AnswerCache, 'sync' | 'get' | 'set' | 'generation'>;

/**
 * Where a calendar is kept once written. By what it was asked (`query`) when no bound of it moves with the clock
 * (a day, or no time filter; a subscription's bounds move once a day): asked again before the store changes, it is
 * answered without reading its events. Otherwise by its ETag, which names its bytes: the events are read again
 * to know it, and only the writing is saved.
 */
interface Keeping {
  query: string | null;
  /** The cache's generation before the events were read: what was read before a change is not kept after it. */
  generation: number;
  /** When the reading began (performance.now()), for the cost the cache weighs. */
  started: number;
}

/** Raised when the calendar's writing changes, so that no ETag of the former bytes stays valid. */
const RENDERING = 1;

function answerOf(doc: CalendarDocument, written: WrittenCalendars, keeping: Keeping): CalendarAnswer {
  const etag = `"${createHash('sha1')
    .update(JSON.stringify([RENDERING, doc]))
    .digest('base64url')}"`;
  return {
    etag,
    body() {
      // By the ETag, whatever changed meanwhile these are its bytes; by the query, only if nothing changed since the
      // events were read (the generation).
      const key = keeping.query ?? `calendar|${etag}`;
      const kept = written.get(key, 0);
      if (kept?.etag === etag) return kept.body;
      const body = Buffer.from(renderCalendar(doc), 'utf8');
      const generation = keeping.query === null ? written.generation() : keeping.generation;
      written.set(key, { body, etag }, generation, performance.now() - keeping.started);
      return body;
    },
  };
}

/** The calendar kept under `query`, if any: the cache first sees changes other processes made. */
async function keptFor(written: WrittenCalendars, query: string | null): Promise<CalendarAnswer | undefined> {
  if (query === null) return undefined;
  await written.sync();
  const kept = written.get(query, 0);
  return kept && { etag: kept.etag, body: () => kept.body };
}

/** Noted before anything of a calendar is read (its owner's name included). */
const keepingFrom = (written: WrittenCalendars): Keeping => ({
  query: null,
  generation: written.generation(),
  started: performance.now(),
});

/** The UTC bounds of the calendar day of `value` in its own offset, as the list route reads `date_filter`. */
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
  const from = Math.floor((parsed.epochMs + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
  return { from: toStored(from), to: toStored(from + DAY_MS) };
}

/** Midnight UTC of `now` minus `days`, stored: bounds that move once a day keep a day's answers byte-identical. */
const daysBefore = (now: number, days: number): string => toStored(Math.floor(now / DAY_MS) * DAY_MS - days * DAY_MS);

export function createCalendarService(
  db: Kysely<Database>,
  subscriptions: CalendarFeedsService,
  clock: Clock,
  written: WrittenCalendars,
) {
  return {
    /** The admin route: the events the list route's filters take (published by default), without tombstones. */
    async forAdmin(communityId: string, query: CalendarQuery): Promise<CalendarAnswer> {
      const keeping = keepingFrom(written);
      const now = clock();
      const feedId = query.feed_id ?? null;
      const { community, feed } = await calendarOwner(db, communityId, feedId);
      if (!community) throw notFound('Community');
      if (feedId !== null && (!feed || feed.is_archived)) throw notFound(`Feed '${feedId}'`);
      const filter: CalendarFilter = {
        status: query.status ?? 'published',
        publishToSite: query.published_to_site,
        isUnlisted: query.is_unlisted,
        feedId: query.feed_id,
        limit: CALENDAR_MAX_EVENTS,
      };
      let byClock = false;
      if (query.date_filter !== undefined) {
        const { from, to } = dayBounds(query.date_filter);
        Object.assign(filter, { overlapFrom: from, startBefore: to });
      } else if (query.time_filter === 'upcoming') {
        filter.endsAfter = toStored(now);
        byClock = true;
      } else if (query.time_filter === 'past') {
        filter.startBefore = toStored(now);
        byClock = true;
      }
      const key = byClock ? null : `calendar|admin|${communityId}|${JSON.stringify(filter)}`;
      const kept = await keptFor(written, key);
      if (kept) return kept;
      keeping.query = key;
      const events = await calendarEvents(db, communityId, filter);
      const name = feed ? `${community.name}: ${feed.label}` : community.name;
      return answerOf({ name, communityId, events, tombstones: [], public: false }, written, keeping);
    },

    /** A subscription's calendar, or 404 for an unknown, malformed or revoked secret (and a feed gone since). */
    async forSubscriber(secret: string): Promise<CalendarAnswer> {
      const keeping = keepingFrom(written);
      const opened = await subscriptions.open(secret);
      if (!opened) throw notFound('Calendar');
      const { communityId, feedId } = opened;
      const { community, feed } = await calendarOwner(db, communityId, feedId);
      if (!community || (feedId !== null && (!feed || feed.is_archived))) throw notFound('Calendar');
      const now = clock();
      const endsFrom = daysBefore(now, PUBLIC_PAST_DAYS);
      const removedFrom = daysBefore(now, TOMBSTONE_RETENTION_DAYS);
      const key = `calendar|public|${communityId}|${feedId ?? ''}|${endsFrom}|${removedFrom}`;
      const kept = await keptFor(written, key);
      if (kept) return kept;
      keeping.query = key;
      const events = await calendarEvents(db, communityId, {
        status: 'published',
        publishToSite: true,
        isUnlisted: false,
        feedId: feedId ?? undefined,
        endsFrom,
        limit: CALENDAR_MAX_EVENTS,
      });
      const tombstones = await calendarTombstones(db, communityId, feedId, removedFrom);
      const name = feed ? `${community.name}: ${feed.label}` : community.name;
      return answerOf({ name, communityId, events, tombstones, public: true }, written, keeping);
    },
  };
}
export type CalendarService = ReturnType<typeof createCalendarService>;
