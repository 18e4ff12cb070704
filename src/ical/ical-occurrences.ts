// A parsed iCalendar file (ical.js) becomes the occurrences Hearth keeps: one per single event, one per
// occurrence of a recurring event inside the window (EXDATE left out, RECURRENCE-ID overrides in place), each
// keyed by its UID and the occurrence's original start, its times placed by the file's VTIMEZONEs or by IANA name.
import ICAL from 'ical.js';
import { epochOfWallTime, isValidTimeZone } from '../lib/time-zone.js';
import { feedError, type EventLines } from './ical-lines.js';

const DAY_MS = 86_400_000;
/** Occurrences of a recurring event kept: those starting from this many days ago … */
export const EXPAND_PAST_DAYS = 90;
/** … to this many days ahead. */
export const EXPAND_FUTURE_DAYS = 365;
/** Steps of one series' expansion before the window ends; more is refused (an RRULE by the second from 1970). */
export const MAX_EXPANSION_STEPS = 100_000;

export interface Occurrence {
  uid: string;
  /** '' for a single event; the occurrence's original start (ISO, UTC; a date for all-day) for a series. */
  recurrence: string;
  cancelled: boolean;
  title: string | null;
  description: string | null;
  location: string | null;
  url: string | null;
  startMs: number;
  /** Null when the event occupies its start instant (no DTEND, or DTEND equal to DTSTART). */
  endMs: number | null;
  /** The IANA zone of DTSTART, or the calendar's for floating and all-day times; null for UTC. */
  timeZone: string | null;
  /** The line of the VEVENT, for messages. */
  line: number;
}

type Time = ICAL.Time;

interface Placing {
  name: string;
  /** The calendar's own zone (X-WR-TIMEZONE) for floating times and dates, when it is an IANA name. */
  defaultZone: string | null;
  /** TZIDs defined by the file's VTIMEZONEs. */
  defined: Set<string>;
}

/** The TZID a time was written with: ical.js keeps it on the time when no VTIMEZONE defines it (untyped). */
const tzidOf = (t: Time): string | null =>
  (t as Time & { timezone?: string }).timezone ??
  (t.zone && t.zone !== ICAL.Timezone.localTimezone ? t.zone.tzid : null);

const wallMs = (t: Time): number => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** The IANA zone a time is written in, or null (UTC, or a zone only the file defines). */
function ianaZone(t: Time, placing: Placing): string | null {
  if (t.zone === ICAL.Timezone.utcTimezone) return null;
  const tzid = tzidOf(t);
  if (tzid && isValidTimeZone(tzid)) return tzid;
  if (tzid) return null;
  return placing.defaultZone;
}

/** The instant of a time: UTC as written; a zone the file defines by its VTIMEZONE; an IANA name by the zone database. */
function instantOf(t: Time, placing: Placing, line: number): number {
  if (t.zone === ICAL.Timezone.utcTimezone) return t.toUnixTime() * 1000;
  const tzid = tzidOf(t);
  if (tzid && placing.defined.has(tzid)) return t.toUnixTime() * 1000;
  if (tzid && !isValidTimeZone(tzid))
    throw feedError(placing.name, line, `unknown time zone '${tzid}': no VTIMEZONE defines it and it is no IANA name`);
  const zone = tzid ?? placing.defaultZone;
  return zone ? epochOfWallTime(wallMs(t), zone) : wallMs(t);
}

const text = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstPropertyValue(name);
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s === '' ? null : s;
};

/** Runs a read of one VEVENT, naming the line of the property it reads when ical.js refuses a value. */
function at<T>(placing: Placing, lines: EventLines, property: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error && /^[^:]+:\d+: /.test(error.message)) throw error;
    const line = lines.properties.get(property) ?? lines.begin;
    throw feedError(placing.name, line, `${property.toUpperCase()}: ${error instanceof Error ? error.message : error}`);
  }
}

function occurrence(
  uid: string,
  recurrence: string,
  item: ICAL.Event,
  start: Time,
  end: Time,
  placing: Placing,
  lines: EventLines,
): Occurrence {
  const startMs = at(placing, lines, 'dtstart', () => instantOf(start, placing, lines.properties.get('dtstart') ?? 0));
  const endMs = at(placing, lines, 'dtend', () => instantOf(end, placing, lines.properties.get('dtend') ?? 0));
  if (endMs < startMs)
    throw feedError(placing.name, lines.properties.get('dtend') ?? lines.begin, 'DTEND is before DTSTART');
  const component = item.component;
  return {
    uid,
    recurrence,
    cancelled: String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED',
    title: text(component, 'summary'),
    description: text(component, 'description'),
    location: text(component, 'location'),
    url: text(component, 'url'),
    startMs,
    endMs: endMs === startMs ? null : endMs,
    timeZone: ianaZone(start, placing),
    line: lines.begin,
  };
}

const recurrenceKey = (t: Time, placing: Placing, line: number): string =>
  t.isDate
    ? `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`
    : new Date(instantOf(t, placing, line)).toISOString();

/**
 * Every occurrence of the file's VEVENTs (`lines` as checkLines found them, in the same order), the window
 * counted from `now`. The file's VTIMEZONEs must be registered with ical.js's TimezoneService before.
 */
export function occurrencesOf(
  calendar: ICAL.Component,
  lines: readonly EventLines[],
  name: string,
  now: number,
): Occurrence[] {
  const wrZone = text(calendar, 'x-wr-timezone');
  const placing: Placing = {
    name,
    defaultZone: wrZone && isValidTimeZone(wrZone) ? wrZone : null,
    defined: new Set(
      calendar.getAllSubcomponents('vtimezone').map((tz) => String(tz.getFirstPropertyValue('tzid') ?? '')),
    ),
  };
  const vevents = calendar.getAllSubcomponents('vevent');
  const byUid = new Map<string, { master?: number; exceptions: number[] }>();
  vevents.forEach((component, i) => {
    const where = lines[i] ?? { begin: 1, properties: new Map() };
    const uid = text(component, 'uid');
    if (uid === null) throw feedError(name, where.begin, 'VEVENT without a UID');
    if (!component.hasProperty('dtstart')) throw feedError(name, where.begin, 'VEVENT without a DTSTART');
    const group = byUid.get(uid) ?? { exceptions: [] };
    if (component.hasProperty('recurrence-id')) group.exceptions.push(i);
    else if (group.master !== undefined) throw feedError(name, where.begin, `a second VEVENT with UID '${uid}'`);
    else group.master = i;
    byUid.set(uid, group);
  });
  const from = now - EXPAND_PAST_DAYS * DAY_MS;
  const until = now + EXPAND_FUTURE_DAYS * DAY_MS;
  const found: Occurrence[] = [];
  for (const [uid, group] of byUid) {
    const linesOf = (i: number): EventLines => lines[i] ?? { begin: 1, properties: new Map() };
    if (group.master === undefined) {
      // Overrides whose series is not in the file: each stands alone, keyed by its RECURRENCE-ID.
      for (const i of group.exceptions) {
        const where = linesOf(i);
        const event = at(placing, where, 'dtstart', () => new ICAL.Event(vevents[i]));
        const key = at(placing, where, 'recurrence-id', () => recurrenceKey(event.recurrenceId, placing, where.begin));
        const start = at(placing, where, 'dtstart', () => event.startDate);
        const end = at(placing, where, 'dtend', () => event.endDate);
        found.push(occurrence(uid, key, event, start, end, placing, where));
      }
      continue;
    }
    const where = linesOf(group.master);
    const master = at(
      placing,
      where,
      'dtstart',
      () =>
        new ICAL.Event(vevents[group.master ?? 0], { exceptions: group.exceptions.flatMap((i) => vevents[i] ?? []) }),
    );
    if (!master.isRecurring()) {
      const start = at(placing, where, 'dtstart', () => master.startDate);
      const end = at(placing, where, 'dtend', () => master.endDate);
      found.push(occurrence(uid, '', master, start, end, placing, where));
      continue;
    }
    const iterator = at(placing, where, 'rrule', () => master.iterator());
    for (let steps = 0; ; steps++) {
      if (steps >= MAX_EXPANSION_STEPS)
        throw feedError(
          name,
          where.properties.get('rrule') ?? where.begin,
          `the series repeats more than ${MAX_EXPANSION_STEPS} times before the import's window ends`,
        );
      const next = at(placing, where, 'rrule', () => iterator.next());
      if (!next) break;
      const details = at(placing, where, 'dtstart', () => master.getOccurrenceDetails(next));
      const itemLines = details.item === master ? where : linesOf(vevents.indexOf(details.item.component));
      const start = instantOf(details.startDate, placing, itemLines.begin);
      const original = instantOf(next, placing, where.begin);
      if (Math.min(start, original) >= until) break;
      if (start < from) continue;
      found.push(
        occurrence(
          uid,
          recurrenceKey(next, placing, where.begin),
          details.item,
          details.startDate,
          details.endDate,
          placing,
          itemLines,
        ),
      );
    }
  }
  return found;
}
