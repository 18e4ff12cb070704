// Instants for demo records: wire timestamps, chat message timestamps and permalinks, and wall-clock times in a zone.
import { offsetMinutesAt } from '../lib/time-zone.js';

const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A moment to the microsecond, so `created_at` and the chat message's `message_ts` agree exactly. */
export interface Moment {
  ms: number;
  /** Microseconds beyond the millisecond, 0 to 999. */
  micros: number;
}

export const moment = (ms: number, micros: number): Moment => ({ ms: Math.floor(ms), micros });

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

// A demo spans a few hundred days, so each day's date is formatted once; formatting the time of day
// by hand is several times cheaper than Date#toISOString on millions of records.
const dates = new Map<number, string>();

/** `YYYY-MM-DD HH:MM:SS.ffffff+00`, the form the API shows. */
export function wire(at: Moment | number): string {
  const ms = Math.floor(typeof at === 'number' ? at : at.ms);
  const micros = typeof at === 'number' ? 0 : at.micros;
  const day = Math.floor(ms / DAY);
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY).toISOString().slice(0, 10);
    dates.set(day, date);
  }
  let rest = ms - day * DAY;
  const hours = Math.floor(rest / HOUR);
  rest -= hours * HOUR;
  const minutes = Math.floor(rest / MINUTE);
  rest -= minutes * MINUTE;
  const seconds = Math.floor(rest / SECOND);
  const fraction = String((rest - seconds * SECOND) * 1000 + micros).padStart(6, '0');
  return `${date} ${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${fraction}+00`;
}

/** Seconds and six digits of microseconds, as the chat product writes `ts` ("1767225600.123456"). */
function tsDigits(at: Moment): string {
  const seconds = Math.floor(at.ms / SECOND);
  const fraction = (at.ms - seconds * SECOND) * 1000 + at.micros;
  return `${seconds}.${String(fraction).padStart(6, '0')}`;
}

export const messageTs = (at: Moment): number => Number(tsDigits(at));

const PERMALINK_BASE = 'https://hearth-demo.chat.example/archives';

export function permalink(channelId: string, at: Moment, threadOf?: Moment): string {
  const link = `${PERMALINK_BASE}/${channelId}/p${tsDigits(at).replace('.', '')}`;
  return threadOf ? `${link}?thread_ts=${tsDigits(threadOf)}&cid=${channelId}` : link;
}

// Offsets change only at transitions, and every zone in use makes those on a quarter hour (UTC):
// within one quarter hour the offset is one value, so it is looked up (slowly, through Intl) once.
const QUARTER_HOUR = 15 * MINUTE;
const offsetCache = new Map<string, Map<number, number>>();

/** Minutes east of UTC that `timeZone` observes at `epochMs` (0 for none). */
function offsetAt(timeZone: string | null, epochMs: number): number {
  if (timeZone === null) return 0;
  let zone = offsetCache.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  const bucket = Math.floor(epochMs / QUARTER_HOUR);
  let offset = zone.get(bucket);
  if (offset === undefined) {
    offset = offsetMinutesAt(timeZone, bucket * QUARTER_HOUR);
    zone.set(bucket, offset);
  }
  return offset;
}

/** ISO 8601 with seconds and the zone's offset at that instant (`+00:00` without a zone), as events show dates. */
export function isoInZone(epochMs: number, timeZone: string | null): string {
  const offset = offsetAt(timeZone, epochMs);
  const local = new Date(epochMs + offset * MINUTE).toISOString().slice(0, 19);
  const abs = Math.abs(offset);
  return `${local}${offset < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** The UTC instant at which the wall clock in `timeZone` (UTC when null) reads the given date and time. */
export function zonedInstant(
  timeZone: string | null,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute = 0,
): number {
  const local = Date.UTC(year, month - 1, day, hour, minute);
  if (timeZone === null) return local;
  // Two rounds settle every real zone; in a spring-forward gap the result lands just past it, like most calendars.
  let guess = local - offsetAt(timeZone, local) * MINUTE;
  guess = local - offsetAt(timeZone, guess) * MINUTE;
  return guess;
}

/** The calendar date that the wall clock in `timeZone` shows at `epochMs`. */
export function localDate(timeZone: string | null, epochMs: number): { year: number; month: number; day: number } {
  const shifted = new Date(epochMs + offsetAt(timeZone, epochMs) * MINUTE);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}
