// The rules of an event write that a JSON schema cannot say: dates with offsets and in order, IANA zones,
// http(s) links, rich text from plain text. Turns a (partial) body into the columns it changes.
import type { Updateable } from 'kysely';
import type { CalendarEventsTable } from '../db/database.js';
import { writeJson } from '../db/json.js';
import type { FieldProblem } from '../errors.js';
import { slugify } from '../lib/slug.js';
import { isValidTimeZone } from '../lib/time-zone.js';
import { parseInstant, toStored } from '../lib/timestamps.js';
import { isHttpUrl } from '../members/member-input.js';
import type { UpdateEventBody } from './event-writes.schemas.js';

export type EventColumns = Updateable<CalendarEventsTable>;

/** The stored facts an update is checked against (null on create). */
export interface CurrentEvent {
  start_at: string;
  end_at: string | null;
  time_zone: string | null;
}

export interface EventChanges {
  columns: EventColumns;
  /** Blocks whose references are derived from the community's profiles and feeds. */
  description?: unknown[];
  recap?: unknown[] | null;
  problems: FieldProblem[];
}

const booleans = [
  'allow_public_guest_list',
  'enable_registration_button',
  'is_unlisted',
  'publish_to_site',
  'triggers_webhooks',
  'show_end_date',
  'use_registration_btn_as_link',
] as const;
const texts = ['external_speakers', 'location', 'partner_event_id', 'webhook_custom_metadata'] as const;
const links = ['link', 'recording_link', 'cover_image_url'] as const;

/** Plain text as the chat product writes a paragraph: one rich-text block holding one section. */
export function textBlocks(text: string): unknown[] {
  return [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] }];
}

function richText(
  value: { blocks?: unknown[]; text?: string },
  field: string,
  problems: FieldProblem[],
): unknown[] | undefined {
  if (value.blocks !== undefined) return value.blocks;
  if (value.text !== undefined) return textBlocks(value.text);
  problems.push({ field, message: 'must have blocks or text' });
  return undefined;
}

interface Instant {
  epochMs: number;
  stored: string;
}

function instant(value: string, field: string, problems: FieldProblem[]): Instant | null {
  const parsed = parseInstant(value);
  if (!parsed?.hasTime || !parsed.hasOffset) {
    problems.push({ field, message: 'must be an ISO 8601 date-time with a numeric offset or Z' });
    return null;
  }
  // The offset only places the instant: the answer gives it in the event's time zone, or UTC without one.
  return { epochMs: parsed.epochMs, stored: toStored(parsed.epochMs, parsed.extraMicros) };
}

/**
 * The columns a body sets. On create `current` is null and every required field is present (the schema says
 * so); on update only the fields present change, and the rules are checked against the stored values.
 */
export function toEventChanges(body: UpdateEventBody, current: CurrentEvent | null): EventChanges {
  const problems: FieldProblem[] = [];
  const columns: EventColumns = {};
  if (body.title !== undefined) {
    columns.title = body.title;
    if (current === null && body.slug === undefined) columns.slug = slugify(body.title);
  }
  if (body.slug !== undefined) columns.slug = body.slug;
  if (body.status !== undefined) columns.status = body.status;
  else if (current === null) columns.status = 'published';

  if (body.timezone !== undefined) {
    if (body.timezone !== null && !isValidTimeZone(body.timezone))
      problems.push({ field: 'timezone', message: 'must be an IANA time zone' });
    else columns.time_zone = body.timezone;
  }
  const start = body.start_date === undefined ? null : instant(body.start_date, 'start_date', problems);
  const end = body.end_date === undefined ? null : instant(body.end_date, 'end_date', problems);
  if (start) columns.start_at = start.stored;
  if (end) columns.end_at = end.stored;
  const startAt = start?.stored ?? current?.start_at;
  const endAt = end?.stored ?? current?.end_at ?? null;
  if ((start || end) && startAt !== undefined && endAt !== null && endAt <= startAt) {
    problems.push({ field: 'end_date', message: 'must be after start_date' });
  }
  if ((start || end) && startAt !== undefined) columns.occupied_until = endAt ?? startAt;

  for (const name of booleans) if (body[name] !== undefined) columns[name] = body[name];
  for (const name of texts) if (body[name] !== undefined) columns[name] = body[name];
  for (const name of links) {
    const value = body[name];
    if (value === undefined) continue;
    if (value !== null && !isHttpUrl(value))
      problems.push({ field: name, message: 'must be an http or https URL with a host' });
    columns[name] = value;
  }

  const changes: EventChanges = { columns, problems };
  if (body.description !== undefined) {
    const blocks = richText(body.description, 'description', problems);
    if (blocks) {
      changes.description = blocks;
      columns.description_chat_blocks = writeJson(blocks);
    }
  }
  if (body.recap !== undefined) {
    const blocks = body.recap === null ? null : richText(body.recap, 'recap', problems);
    if (blocks !== undefined) {
      changes.recap = blocks;
      columns.recap_chat_blocks = blocks === null ? null : writeJson(blocks);
    }
  }
  return changes;
}
