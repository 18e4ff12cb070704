// The event form: its fields to the body the API's event writes take (dates in the event's zone with their offset),
// and an event as GET answers it back to the form's fields.
import type { Static } from '@sinclair/typebox';
import type { CreateEventBody, UpdateEventBody } from '../events/event-writes.schemas.js';
import { epochOfWallTime, formatInZone, isValidTimeZone } from '../lib/time-zone.js';
import { Checkbox, Field, Form } from './forms.js';

export const EventForm = Form({
  title: Field(200),
  start_date: Field(64),
  end_date: Field(64),
  timezone: Field(64),
  hosts: Field(2000),
  description: Field(20_000),
  status: Field(20),
  location: Field(500),
  link: Field(2048),
  publish_to_site: Checkbox(),
  is_unlisted: Checkbox(),
  triggers_webhooks: Checkbox(),
  /** The ETag of the event as the form was opened: sent back as If-Match, so a stale edit is refused. */
  etag: Field(200),
  /** The description and hosts as the form showed them: unchanged, they are not sent (rich text stays as it is). */
  description_shown: Field(20_000),
  hosts_shown: Field(2000),
});
export type EventForm = Static<typeof EventForm>;

/** The form's values, as shown again after a refusal or filled from an event. */
export type EventFields = Omit<EventForm, '_csrf'>;

/**
 * `2026-04-01T18:00` (a datetime-local input) in `zone` to ISO 8601 with the zone's offset at that instant; a value
 * that is not a local date-time goes to the API as typed, whose rules name it.
 */
function withOffset(local: string, zone: string | null): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(local.trim());
  if (!match) return local.trim();
  const wall = Date.parse(`${match[1]}T${match[2]}${match[3] ?? ':00'}Z`);
  if (Number.isNaN(wall)) return local.trim();
  const epoch = zone && isValidTimeZone(zone) ? epochOfWallTime(wall, zone) : wall;
  return formatInZone(epoch, zone && isValidTimeZone(zone) ? zone : null);
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);

const on = (value: string | undefined) => value !== undefined && value !== '';

/** The create body of a form: what the API's POST /calendar_events would receive. */
export function createBody(form: EventForm): CreateEventBody {
  const zone = form.timezone?.trim() || null;
  const body: Record<string, unknown> = {
    title: form.title?.trim() ?? '',
    start_date: withOffset(form.start_date ?? '', zone),
    end_date: withOffset(form.end_date ?? '', zone),
    hosts: list(form.hosts),
    description: form.description?.trim() ? { text: form.description.trim() } : {},
    publish_to_site: on(form.publish_to_site),
    is_unlisted: on(form.is_unlisted),
    triggers_webhooks: on(form.triggers_webhooks),
  };
  if (zone) body['timezone'] = zone;
  if (form.status) body['status'] = form.status;
  if (form.location?.trim()) body['location'] = form.location.trim();
  if (form.link?.trim()) body['link'] = form.link.trim();
  return body as CreateEventBody;
}

/** The update body of a form: every field but the description and hosts when they are as they were shown. */
export function updateBody(form: EventForm): UpdateEventBody {
  const { description, hosts, ...rest } = createBody(form) as CreateEventBody & Record<string, unknown>;
  const body: Record<string, unknown> = {
    ...rest,
    timezone: form.timezone?.trim() || null,
    location: form.location?.trim() || null,
    link: form.link?.trim() || null,
  };
  if ((form.description ?? '').trim() !== (form.description_shown ?? '').trim()) body['description'] = description;
  if ((form.hosts ?? '').trim() !== (form.hosts_shown ?? '').trim()) body['hosts'] = hosts;
  return body as UpdateEventBody;
}

/** The plain text of rich-text blocks, paragraphs on lines of their own. */
export function blocksText(blocks: unknown): string {
  const out: string[] = [];
  const walk = (node: unknown, line: string[]): void => {
    if (Array.isArray(node)) for (const item of node) walk(item, line);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (typeof record['text'] === 'string') line.push(record['text']);
      if (Array.isArray(record['elements'])) walk(record['elements'], line);
    }
  };
  for (const block of Array.isArray(blocks) ? blocks : []) {
    const line: string[] = [];
    walk(block, line);
    out.push(line.join(''));
  }
  return out.join('\n').trim();
}

interface Person {
  email?: string | null;
  profile_id?: string;
}

/** A `datetime-local` value of an ISO date with offset: the wall time it names. */
const localOf = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 16) : '');

/** An event as the API answers it, as form values (the zone is the one its offset came from, when it was kept). */
export function fieldsOf(event: Record<string, unknown>, etag: string, timezone: string | null): EventFields {
  const hosts = ((event['hosts'] as Person[] | undefined) ?? []).map((p) => p.email ?? p.profile_id ?? '').join(', ');
  const description = blocksText(event['description_chat_blocks']);
  const text = (key: string) => (typeof event[key] === 'string' ? (event[key] as string) : '');
  const flag = (key: string) => (event[key] === true ? 'on' : undefined);
  return {
    title: text('title'),
    start_date: localOf(event['start_date']),
    end_date: localOf(event['end_date']),
    timezone: timezone ?? '',
    hosts,
    hosts_shown: hosts,
    description,
    description_shown: description,
    status: text('status'),
    location: text('location'),
    link: text('link'),
    publish_to_site: flag('publish_to_site'),
    is_unlisted: flag('is_unlisted'),
    triggers_webhooks: flag('triggers_webhooks'),
    etag,
  };
}
