// Calendar event rows and their lists become the API's calendar event (spec 2.2) here.
import type { Selectable } from 'kysely';
import type { EventPublicationsTable, TagsTable } from '../db/database.js';
import { readJson } from '../db/json.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { epochOfStored, toWire } from '../lib/timestamps.js';
import { formatInZone } from '../lib/time-zone.js';
import type { CalendarEvent, PublishedTo, Tag } from '../schemas/event.js';
import type { Profile } from '../schemas/profile.js';
import type { ChatBlock, References } from '../schemas/references.js';
import type { EventProfileRow, EventRow, EventTagRow } from './events.repository.js';

export interface EventLists {
  hosts: Profile[];
  speakers: Profile[];
  tags: Tag[];
  published_to: PublishedTo[];
}

const emptyLists = (): EventLists => ({ hosts: [], speakers: [], tags: [], published_to: [] });

/** Groups the child rows of several events by event id, keeping each list's order. */
export function groupEventLists(
  profiles: EventProfileRow[],
  tags: EventTagRow[],
  publications: Selectable<EventPublicationsTable>[],
): Map<string, EventLists> {
  const byEvent = new Map<string, EventLists>();
  const listsOf = (eventId: string) => {
    let lists = byEvent.get(eventId);
    if (!lists) {
      lists = emptyLists();
      byEvent.set(eventId, lists);
    }
    return lists;
  };
  for (const row of profiles) listsOf(row.event_id)[row.role === 'host' ? 'hosts' : 'speakers'].push(toProfile(row));
  for (const row of tags) listsOf(row.event_id).tags.push(toTag(row));
  for (const row of publications) {
    listsOf(row.event_id).published_to.push({
      chat_channel_id: row.chat_channel_id,
      chat_message_permalink: row.chat_message_permalink,
      feed_id: row.feed_id,
    });
  }
  return byEvent;
}

export function toTag(row: Selectable<TagsTable>): Tag {
  return { id: row.id, created_at: toWire(row.created_at), tag_group_id: row.tag_group_id, label: row.label };
}

export function toCalendarEvent(row: EventRow, lists: EventLists = emptyLists()): CalendarEvent {
  return {
    id: row.id,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    allow_public_guest_list: Boolean(row.allow_public_guest_list),
    description_chat_blocks: readJson<ChatBlock[] | null>(row.description_chat_blocks),
    description_chat_blocks_references: readJson<References>(row.description_chat_blocks_references),
    enable_registration_button: Boolean(row.enable_registration_button),
    end_date: row.end_at === null ? null : formatInZone(epochOfStored(row.end_at), row.time_zone),
    external_speakers: row.external_speakers,
    is_unlisted: Boolean(row.is_unlisted),
    link: row.link,
    location: row.location,
    partner_event_id: row.partner_event_id,
    publish_to_site: Boolean(row.publish_to_site),
    triggers_webhooks: Boolean(row.triggers_webhooks),
    recap_chat_blocks: readJson<ChatBlock[] | null>(row.recap_chat_blocks),
    recap_chat_blocks_references: readJson<References>(row.recap_chat_blocks_references),
    recording_link: row.recording_link,
    webhook_custom_metadata: row.webhook_custom_metadata,
    show_end_date: Boolean(row.show_end_date),
    slug: row.slug,
    start_date: formatInZone(epochOfStored(row.start_at), row.time_zone),
    status: row.status as CalendarEvent['status'],
    title: row.title,
    use_registration_btn_as_link: Boolean(row.use_registration_btn_as_link),
    attendees_count: Number(row.attendees_count),
    cover_image_url: row.cover_image_url,
    ...lists,
  };
}
