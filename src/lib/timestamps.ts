// Timestamps: parsing ISO 8601 / wire input into the stored UTC form, and rendering the wire form.
// Stored form: `YYYY-MM-DD HH:MM:SS.ffffff` in UTC; it sorts as text in time order, keeps microseconds
// (which a JS Date cannot), and becomes the wire form by appending `+00`.

const pattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

export interface ParsedInstant {
  /** Milliseconds since the epoch, UTC. */
  epochMs: number;
  /** Microseconds beyond the millisecond (0 to 999). */
  extraMicros: number;
  /** The offset written in the input, in minutes east of UTC (0 when none was written). */
  offsetMinutes: number;
  /** Whether the input held a time of day (not a bare date). */
  hasTime: boolean;
  /** Whether the input named its offset (`Z`, `+02:00`); without one, `epochMs` reads the written time as UTC. */
  hasOffset: boolean;
}

/** Parses an ISO 8601 date or date-time, or the wire format; returns null when it is not one. */
export function parseInstant(input: string): ParsedInstant | null {
  const m = pattern.exec(input.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', off] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(base);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  let offsetMinutes = 0;
  if (off && off !== 'Z' && off !== 'z') {
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const micros = Number(frac.padEnd(6, '0').slice(0, 6));
  const epochMs = base - offsetMinutes * 60_000 + Math.floor(micros / 1000);
  if (!Number.isFinite(epochMs) || year < 1) return null;
  return {
    epochMs,
    extraMicros: micros % 1000,
    offsetMinutes,
    hasTime: m[4] !== undefined,
    hasOffset: off !== undefined,
  };
}

const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The stored form of an instant. The form holds years 1 to 9999 (as both stores do); an instant computed
 * beyond them (the day after 9999-12-31, as a query bound) is clamped to the nearest end, not written as
 * `+010000-…`, which PostgreSQL refuses.
 */
export function toStored(epochMs: number, extraMicros = 0): string {
  if (epochMs < FIRST_MS) return '0001-01-01 00:00:00.000000';
  if (epochMs > LAST_MS) return '9999-12-31 23:59:59.999999';
  const iso = new Date(epochMs).toISOString(); // 2026-03-08T10:00:00.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${String(extraMicros).padStart(3, '0')}`;
}

/** The wire form with microseconds, as exports and the Slack import write every timestamp. */
const WIRE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.\d{6}\+00$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The stored form of a valid wire timestamp of years 1000 to 9999 (its first 26 characters), else null: found
 * without building a date and writing it out again (an import reads hundreds of thousands of them).
 */
function storedFromWire(input: string): string | null {
  const m = WIRE.exec(input);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = (DAYS_IN_MONTH[month - 1] ?? 0) + (leap ? 1 : 0);
  if (year < 1000 || day < 1 || day > days || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return null;
  return input.slice(0, 26);
}

/** Parses any accepted input into the stored form, or null. */
export function storedFromInput(input: string): string | null {
  const wire = storedFromWire(input);
  if (wire !== null) return wire;
  const parsed = parseInstant(input);
  return parsed ? toStored(parsed.epochMs, parsed.extraMicros) : null;
}

/** Milliseconds since the epoch of a stored timestamp. */
export function epochOfStored(stored: string): number {
  return Date.parse(`${stored.slice(0, 10)}T${stored.slice(11, 23)}Z`);
}

/** The wire form of a stored timestamp: `YYYY-MM-DD HH:MM:SS.ffffff+00`. */
export function toWire(stored: string): string;
export function toWire(stored: string | null): string | null;
export function toWire(stored: string | null): string | null {
  return stored === null ? null : `${stored}+00`;
}
