// IANA time zones: validating names and rendering an instant with the zone's offset at that instant.

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets asked before, by zone and instant. Intl takes about 20 µs to answer one, and a calendar of hundreds of
 * events asks two per event, mostly at the same few times of day. Emptied when full.
 */
const knownOffsets = new Map<string, number>();
const KNOWN_OFFSETS = 4096;

/** Minutes east of UTC that `timeZone` observes at `epochMs`. */
export function offsetMinutesAt(timeZone: string, epochMs: number): number {
  const key = `${timeZone}|${epochMs}`;
  const known = knownOffsets.get(key);
  if (known !== undefined) return known;
  const offset = askedOffset(timeZone, epochMs);
  if (knownOffsets.size >= KNOWN_OFFSETS) knownOffsets.clear();
  knownOffsets.set(key, offset);
  return offset;
}

function askedOffset(timeZone: string, epochMs: number): number {
  const part = formatterFor(timeZone)
    .formatToParts(epochMs)
    .find((p) => p.type === 'timeZoneName')?.value;
  // "GMT", "GMT-07:00", "GMT+05:30"
  const m = part ? /^GMT([+-])(\d{2}):(\d{2})$/.exec(part) : null;
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * ISO 8601 with seconds and the zone's numeric offset at that instant, e.g. `2026-03-08T10:00:00-07:00`; without a
 * zone, UTC (`+00:00`).
 */
export function formatInZone(epochMs: number, timeZone: string | null): string {
  const offset = timeZone ? offsetMinutesAt(timeZone, epochMs) : 0;
  const local = new Date(epochMs + offset * 60_000).toISOString();
  return `${local.slice(0, 19)}${formatOffset(offset)}`;
}

/**
 * The instant at which clocks in `timeZone` show `wallMs` (the local date and time written as if they were
 * UTC). As JavaScript's Temporal does by default: a local time that a change of offset skips (02:30 on the
 * night clocks go forward) is read with the offset before the change, so it lands just after it; a local
 * time shown twice (clocks going back) is the earlier of the two instants.
 */
export function epochOfWallTime(wallMs: number, timeZone: string): number {
  const day = 86_400_000;
  const before = offsetMinutesAt(timeZone, wallMs - day);
  const after = offsetMinutesAt(timeZone, wallMs + day);
  const shown = [before, after]
    .map((offset) => wallMs - offset * 60_000)
    .filter((instant) => instant + offsetMinutesAt(timeZone, instant) * 60_000 === wallMs);
  return shown.length > 0 ? Math.min(...shown) : wallMs - before * 60_000;
}
