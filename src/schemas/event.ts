// The calendar event (spec 2.2) with its published-to (2.3), profiles (2.4) and tags (2.5).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, ShortId, StringEnum, Timestamp, Url, Uuid } from './common.js';
import { Profile } from './profile.js';
import { ChatBlocks, References } from './references.js';

export const eventStatuses = ['draft', 'needs_approval', 'published'] as const;
export const EventStatus = StringEnum(eventStatuses);

export const Tag = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  tag_group_id: Nullable(Type.String()),
  label: Type.String(),
});
export type Tag = Static<typeof Tag>;

export const PublishedTo = Type.Object({
  chat_channel_id: Nullable(Type.String()),
  chat_message_permalink: Nullable(Url),
  feed_id: Nullable(Uuid),
});
export type PublishedTo = Static<typeof PublishedTo>;

const IsoWithOffset = Type.String({
  description: 'ISO 8601 date-time with the numeric offset of the event time zone',
  examples: ['2026-03-08T10:00:00-07:00'],
});

export const CalendarEvent = Type.Object({
  id: ShortId,
  created_at: Timestamp,
  updated_at: Timestamp,
  allow_public_guest_list: Type.Boolean(),
  description_chat_blocks: ChatBlocks,
  description_chat_blocks_references: References,
  enable_registration_button: Type.Boolean(),
  end_date: Nullable(IsoWithOffset),
  external_speakers: Nullable(Type.String()),
  is_unlisted: Type.Boolean(),
  link: Nullable(Url),
  location: Nullable(Type.String()),
  partner_event_id: Nullable(Type.String()),
  publish_to_site: Type.Boolean(),
  triggers_webhooks: Type.Boolean(),
  recap_chat_blocks: ChatBlocks,
  recap_chat_blocks_references: References,
  recording_link: Nullable(Url),
  webhook_custom_metadata: Nullable(Type.String()),
  show_end_date: Type.Boolean(),
  slug: Nullable(Type.String()),
  start_date: IsoWithOffset,
  status: EventStatus,
  title: Nullable(Type.String()),
  use_registration_btn_as_link: Type.Boolean(),
  attendees_count: Type.Integer(),
  cover_image_url: Nullable(Url),
  published_to: Type.Array(PublishedTo),
  hosts: Type.Array(Profile),
  speakers: Type.Array(Profile),
  tags: Type.Array(Tag),
});
export type CalendarEvent = Static<typeof CalendarEvent>;
