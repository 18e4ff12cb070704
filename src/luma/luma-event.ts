// A Luma event (an entry of the calendar's list, or `/v1/events/get`) mapped to what Hearth keeps of it: each field
// read without trusting the payload, so a missing or malformed one is named instead of written.
import { isRecord, nonEmptyStringOf, recordsOf, type JsonRecord } from '../content/loose-json.js';
import { isValidTimeZone } from '../lib/time-zone.js';
import { parseInstant, toStored } from '../lib/timestamps.js';
import { isHttpUrl } from '../members/member-input.js';

export interface LumaHost {
  email: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  avatarUrl: string | null;
}

export interface MappedLumaEvent {
  /** Luma's `evt-…` id: the event's `partner_event_id`. */
  lumaId: string;
  title: string;
  /** Stored instants (UTC). */
  startAt: string;
  endAt: string | null;
  timeZone: string | null;
  link: string | null;
  location: string | null;
  coverImageUrl: string | null;
  /** The Markdown description as written (or the plain one when there is none). */
  description: string;
  isUnlisted: boolean;
}

/** The event object of an entry: the current API's entries are events; older ones wrap it as `{api_id, event}`. */
export function eventOf(entry: unknown): JsonRecord | null {
  if (!isRecord(entry)) return null;
  return isRecord(entry['event']) ? entry['event'] : entry;
}

/** The id of an entry (`id`, or the deprecated `api_id` of older payloads). */
export const lumaIdOf = (event: JsonRecord): string | undefined =>
  nonEmptyStringOf(event['id']) ?? nonEmptyStringOf(event['api_id']);

const stored = (value: unknown): string | null => {
  const parsed = typeof value === 'string' ? parseInstant(value) : null;
  return parsed?.hasTime && parsed.hasOffset ? toStored(parsed.epochMs, parsed.extraMicros) : null;
};

const httpUrl = (value: unknown): string | null => {
  const text = nonEmptyStringOf(value);
  return text !== undefined && isHttpUrl(text) ? text : null;
};

/** The street address when Luma has one, else the online meeting's URL. */
function locationOf(event: JsonRecord): string | null {
  const address = isRecord(event['geo_address_json']) ? event['geo_address_json'] : null;
  return (
    nonEmptyStringOf(address?.['full_address']) ??
    nonEmptyStringOf(address?.['address']) ??
    nonEmptyStringOf(event['meeting_url']) ??
    null
  );
}

/** The event's fields, or the reason it cannot be kept. */
export function mapLumaEvent(event: JsonRecord): MappedLumaEvent | string {
  const lumaId = lumaIdOf(event);
  if (lumaId === undefined) return 'has no id';
  const title = nonEmptyStringOf(event['name']);
  if (title === undefined) return `${lumaId} has no name`;
  const startAt = stored(event['start_at']);
  if (startAt === null) return `${lumaId} has no start_at with a time and an offset`;
  const endAt = event['end_at'] == null ? null : stored(event['end_at']);
  if (event['end_at'] != null && endAt === null) return `${lumaId} has an end_at that is not a date-time`;
  if (endAt !== null && endAt < startAt) return `${lumaId} ends before it starts`;
  const zone = nonEmptyStringOf(event['timezone']);
  const visibility = nonEmptyStringOf(event['visibility']);
  return {
    lumaId,
    title,
    startAt,
    // An end equal to the start (Luma's own example has one) is an event without an end, as the API keeps it.
    endAt: endAt === startAt ? null : endAt,
    timeZone: zone !== undefined && isValidTimeZone(zone) ? zone : null,
    link: httpUrl(event['url']),
    location: locationOf(event),
    coverImageUrl: httpUrl(event['cover_url']),
    description: nonEmptyStringOf(event['description_md']) ?? nonEmptyStringOf(event['description']) ?? '',
    isUnlisted: visibility !== undefined && visibility !== 'public',
  };
}

/** The hosts of `/v1/events/get` that have an e-mail (the key they are matched by), each e-mail once. */
export function hostsOf(eventView: unknown): LumaHost[] {
  const view = isRecord(eventView) ? eventView : {};
  // The older admin view answered `{event, hosts}`; the current one is the event with `hosts` inside.
  const hosts = recordsOf(view['hosts'] ?? (isRecord(view['event']) ? view['event']['hosts'] : undefined));
  const seen = new Set<string>();
  const found: LumaHost[] = [];
  for (const host of hosts) {
    const email = nonEmptyStringOf(host['email'])?.trim();
    if (email === undefined || !email.includes('@') || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    found.push({
      email,
      firstName: nonEmptyStringOf(host['first_name']) ?? null,
      lastName: nonEmptyStringOf(host['last_name']) ?? null,
      name: nonEmptyStringOf(host['name']) ?? null,
      avatarUrl: httpUrl(host['avatar_url']),
    });
  }
  return found;
}
