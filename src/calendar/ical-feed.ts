// Events and tombstones become an RFC 5545 calendar (ical-generator), each zone with its VTIMEZONE
// (timezones-ical-library): a stable UID per event, SEQUENCE from the event's fragment version, DTSTAMP and
// LAST-MODIFIED from its last change, so that the same store writes the same bytes (and the same ETag).
import ical, { ICalEventStatus } from 'ical-generator';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { blocksToPlaintext } from '../content/rich-text.js';
import { readJson } from '../db/json.js';
import { epochOfStored } from '../lib/timestamps.js';
import type { CalendarEventRow, TombstoneRow } from './calendar.reads.js';
import { ZonedDate } from './zoned-date.js';

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';
const PRODUCT_ID = { company: 'Hearth', product: 'Hearth calendar' };

let knownZones: Set<string> | null = null;

/** The zone an event is written in: its own when the VTIMEZONE library knows it, else none (UTC). */
function zoneOf(timeZone: string | null): string | null {
  if (timeZone === null || timeZone === 'UTC' || timeZone === 'Etc/UTC') return null;
  knownZones ??= new Set(tzlib_get_timezones(false) as string[]);
  return knownZones.has(timeZone) ? timeZone : null;
}

/** VTIMEZONE blocks by zone: the library takes milliseconds to build one, and they never change in a process. */
const vtimezones = new Map<string, string | null>();

function vtimezone(timeZone: string): string | null {
  let block = vtimezones.get(timeZone);
  if (block === undefined) {
    const found = tzlib_get_ical_block(timeZone, false);
    block = Array.isArray(found) && found[0] ? found[0] : null;
    vtimezones.set(timeZone, block);
  }
  return block;
}

/** Something that looks like an e-mail address, as a public calendar must never carry one. */
const EMAIL = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+\.[^\s<>()[\]"',;:@]+/g;
export const hideEmails = (text: string): string => text.replace(EMAIL, '[e-mail hidden]');

export const eventUid = (communityId: string, eventId: string): string => `${eventId}@${communityId}`;

export interface CalendarDocument {
  name: string;
  communityId: string;
  events: readonly CalendarEventRow[];
  tombstones: readonly TombstoneRow[];
  /** A public feed: e-mail addresses are hidden in every text. */
  public: boolean;
}

/**
 * Start and end as ical-generator takes them, in the event's zone. An event from midnight to midnight stays two
 * zoned times rather than becoming DATE values: a date has no zone, and the times read back exactly.
 */
function times(startAt: string, endAt: string | null, timeZone: string | null) {
  const zone = zoneOf(timeZone);
  const at = (stored: string) => (zone ? new ZonedDate(epochOfStored(stored), zone) : new Date(epochOfStored(stored)));
  return { start: at(startAt), end: endAt === null ? null : at(endAt), timezone: zone };
}

export function renderCalendar(doc: CalendarDocument): string {
  const text = (value: string | null): string | null =>
    value === null || value === '' ? null : doc.public ? hideEmails(value) : value;
  const calendar = ical({ prodId: PRODUCT_ID, name: text(doc.name) ?? 'Calendar' });
  calendar.timezone({ name: null, generator: vtimezone });
  const shown = new Set<string>();
  for (const row of doc.events) {
    shown.add(row.id);
    const modified = new Date(epochOfStored(row.updated_at));
    const description = blocksToPlaintext(readJson<unknown>(row.description_chat_blocks));
    calendar.createEvent({
      id: eventUid(doc.communityId, row.id),
      sequence: Number(row.sequence ?? 0),
      ...times(row.start_at, row.end_at, row.time_zone),
      stamp: modified,
      created: new Date(epochOfStored(row.created_at)),
      lastModified: modified,
      summary: text(row.title) ?? '',
      description: text(description),
      location: text(row.location),
      url: row.link,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  for (const row of doc.tombstones) {
    if (shown.has(row.event_id)) continue;
    const removed = new Date(epochOfStored(row.removed_at));
    calendar.createEvent({
      id: eventUid(doc.communityId, row.event_id),
      sequence: Number(row.sequence),
      ...times(row.start_at, row.end_at, row.time_zone),
      stamp: removed,
      lastModified: removed,
      summary: text(row.title) ?? '',
      status: ICalEventStatus.CANCELLED,
    });
  }
  return calendar.toString();
}
