// Turns a finished spec answer into the hosted product's: its key names (hosted-names.ts), `message_ts` as a
// string, every timestamp as PostgreSQL prints it, events' and their hosts' and speakers' `created_at`/`updated_at`
// in ISO 8601, and events' `reminders_config`.
import { hostedKey, isOpaqueKey } from './hosted-names.js';

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const WIRE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?\+00$/;
const trimmedFraction = (digits: string | undefined): string => {
  const fraction = (digits ?? '').replace(/0+$/, '');
  return fraction ? `.${fraction}` : '';
};

/**
 * `2026-02-07 18:04:05.123000+00` -> `2026-02-07T18:04:05.123+00:00`: the hosted product prints these timestamps as
 * PostgreSQL's JSON does, trailing zeros of the fraction trimmed (and no fraction when it is all zeros).
 */
export function hostedTimestamp(value: unknown): unknown {
  const match = typeof value === 'string' ? WIRE_TIMESTAMP.exec(value) : null;
  return match ? `${match[1]}T${match[2]}${trimmedFraction(match[3])}+00:00` : value;
}

/**
 * `2026-03-01 10:05:00.250000+00` -> `2026-03-01 10:05:00.25+00`: the hosted product's other timestamps (posts,
 * comments, authors, tags) are PostgreSQL's text output, which trims the fraction's trailing zeros too.
 */
export function hostedTextTimestamp(value: unknown): unknown {
  const match = typeof value === 'string' ? WIRE_TIMESTAMP.exec(value) : null;
  return match ? `${match[1]} ${match[2]}${trimmedFraction(match[3])}+00` : value;
}

/** Every timestamp of the response schemas is a key ending in `_at` (`created_at`, `latest_activity_at`, …). */
const isTimestampKey = (key: string): boolean => key.endsWith('_at');

/** A profile embedded in an event (host or speaker): its times in ISO 8601, as the hosted product answers them. */
function hostedProfiles(profiles: unknown): void {
  if (!Array.isArray(profiles)) return;
  for (const profile of profiles) {
    if (!isObject(profile)) continue;
    if ('created_at' in profile) profile['created_at'] = hostedTimestamp(profile['created_at']);
    if ('updated_at' in profile) profile['updated_at'] = hostedTimestamp(profile['updated_at']);
  }
}

/** A chat message's timestamp as the chat product writes it: a string with six decimals. */
export function hostedMessageTs(value: unknown): unknown {
  return typeof value === 'number' ? value.toFixed(6) : value;
}

/** The events found in an answer (by their hosted objects), to fill in `reminders_config` once they are known. */
export interface HostedEvents {
  ids: string[];
  objects: JsonObject[];
}

function hostedEvent(event: JsonObject, found: HostedEvents): void {
  event['created_at'] = hostedTimestamp(event['created_at']);
  event['updated_at'] = hostedTimestamp(event['updated_at']);
  hostedProfiles(event['hosts']);
  hostedProfiles(event['speakers']);
  event['reminders_config'] = [];
  if (typeof event['id'] === 'string') {
    found.ids.push(event['id']);
    found.objects.push(event);
  }
}

function walk(value: unknown, found: HostedEvents): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, found));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const inner = value[key];
    if (isOpaqueKey(key)) {
      out[hostedKey(key)] = inner;
      continue;
    }
    const converted =
      isTimestampKey(key) && typeof inner === 'string' ? hostedTextTimestamp(inner) : walk(inner, found);
    if (key === 'chat_message' && isObject(converted))
      converted['message_ts'] = hostedMessageTs(converted['message_ts']);
    out[hostedKey(key)] = converted;
  }
  // A calendar event is the one record with description blocks and a start date.
  if ('description_chat_blocks' in value && 'start_date' in value) hostedEvent(out, found);
  return out;
}

/** The hosted form of a parsed answer body, and the events in it (each with `reminders_config: []` so far). */
export function toHostedAnswer(body: unknown): { body: unknown; events: HostedEvents } {
  const events: HostedEvents = { ids: [], objects: [] };
  return { body: walk(body, events), events };
}
