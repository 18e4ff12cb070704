// Events and tombstones become an RFC 5545 calendar (ical-generator), each zone with its VTIMEZONE
// (timezones-ical-library): a stable UID per event, SEQUENCE from the event's fragment version, DTSTAMP and
// LAST-MODIFIED from its last change, so that the same store writes the same bytes (and the same ETag).
import ical, { type ICalCalendar, ICalEventStatus } from 'ical-generator';
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

/** An empty calendar of this name, writing each zone's VTIMEZONE block (ical-generator's own options). */
function calendarNamed(name: string): ICalCalendar {
  const calendar = ical({ prodId: PRODUCT_ID, name });
  calendar.timezone({ name: null, generator: vtimezone });
  return calendar;
}

/** The document as ical-generator's calendar: its events and, after them, its tombstones as cancelled events. */
export function calendarOf(doc: CalendarDocument): ICalCalendar {
  const text = (value: string | null): string | null =>
    value === null || value === '' ? null : doc.public ? hideEmails(value) : value;
  const calendar = calendarNamed(text(doc.name) ?? 'Calendar');
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
  return calendar;
}

const FOLD_AT = 74;

/**
 * RFC 5545's folding as ical-generator writes it: a line longer than 75 octets goes on after CRLF and a space, each
 * part at most 74 octets plus the space; a character is never split (a surrogate pair counts as one of 4 octets,
 * anything else as its UTF-8 length, a lone surrogate as the 3 of U+FFFD).
 */
export function foldLines(input: string): string {
  const lines = input.split('\r\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] ?? '';
    // All ASCII (one octet a character), as most lines are: parts of 74 characters. Any other line is counted
    // character by character, as the library counts (a lone high surrogate takes the next unit with it).
    if (Buffer.byteLength(line) === line.length) {
      if (line.length <= FOLD_AT) continue;
      const parts: string[] = [];
      for (let at = 0; at < line.length; at += FOLD_AT) parts.push(line.slice(at, at + FOLD_AT));
      lines[n] = parts.join('\r\n ');
      continue;
    }
    let folded = '';
    let octets = 0;
    for (let i = 0; i < line.length; i++) {
      let ch = line.charAt(i);
      const code = line.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff) ch += line.charAt(++i);
      const size = code < 0x80 ? 1 : Buffer.byteLength(ch);
      octets += size;
      if (octets > FOLD_AT) {
        folded += '\r\n ';
        octets = size;
      }
      folded += ch;
    }
    lines[n] = folded;
  }
  return lines.join('\r\n');
}

/**
 * The calendar's bytes: exactly what ical-generator's `calendar.toString()` writes (the tests hold the two equal),
 * but folded above. ical-generator 10 counts each character's octets with a new TextEncoder, about 300 µs an
 * event and most of a calendar's writing; its fast fold (11.1) needs Node 22, and Hearth still runs on 20. So the
 * header is the library's (an empty calendar of the same name), then the VTIMEZONE blocks of the events' zones in
 * the library's order and form, the events as the library writes each, and the end.
 */
export function writeCalendar(calendar: ICalCalendar): string {
  const events = calendar.events();
  const head = calendarNamed(calendar.name() ?? 'Calendar').toString();
  const END = 'END:VCALENDAR';
  if (!head.endsWith(END)) throw new Error('ical-generator wrote an empty calendar in an unexpected form');
  let body = '';
  for (const zone of new Set(events.map((event) => event.timezone()))) {
    if (zone === null || zone.startsWith('/')) continue;
    const block = vtimezone(zone);
    if (block) body += `${block.replace(/\r\n/g, '\n').replace(/\n/g, '\r\n').trim()}\r\n`;
  }
  for (const event of events) body += event.toString();
  return head.slice(0, -END.length) + foldLines(body + END);
}

export const renderCalendar = (doc: CalendarDocument): string => writeCalendar(calendarOf(doc));
