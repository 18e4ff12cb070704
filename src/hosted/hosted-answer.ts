// Turns a finished spec answer into the hosted product's: its key names (hosted-names.ts), `message_ts` as a
// string, events' and their hosts' `created_at`/`updated_at` in ISO 8601, and events' `reminders_config`.
import { hostedKey, isOpaqueKey } from './hosted-names.js';

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `2026-02-07 18:04:05.123000+00` -> `2026-02-07T18:04:05.123+00:00`: the hosted product prints timestamps as
 * PostgreSQL's JSON does, trailing zeros of the fraction trimmed (and no fraction when it is all zeros).
 */
export function hostedTimestamp(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?\+00$/.exec(value);
  if (!match) return value;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return `${match[1]}T${match[2]}${fraction ? `.${fraction}` : ''}+00:00`;
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
  const hosts = event['hosts'];
  if (Array.isArray(hosts))
    for (const host of hosts) if (isObject(host)) host['created_at'] = hostedTimestamp(host['created_at']);
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
    const converted = walk(inner, found);
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
