// Request and response schemas of creating, changing and deleting calendar events, the fields as the hosted product takes them.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableObject, One, ShortId, StringEnum, unknownFieldsRefused, Uuid } from '../schemas/common.js';
import { CalendarEvent } from '../schemas/event.js';
import { ChatBlock } from '../schemas/references.js';

const writableStatuses = ['needs_approval', 'published'] as const;

const RichText = Type.Object(
  {
    blocks: Type.Optional(
      Type.Array(ChatBlock, { maxItems: 200, description: 'Rich-text blocks, as the chat product writes them' }),
    ),
    text: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20_000,
        description: 'Plain text; becomes one section block when `blocks` is absent',
      }),
    ),
  },
  { additionalProperties: false },
);

const PersonRef = Type.String({
  minLength: 1,
  maxLength: 254,
  description: 'A profile id (UUID), a member e-mail or a chat user id',
});
const ChatUserIds = Type.Array(Type.String({ minLength: 1, maxLength: 254 }), {
  minItems: 1,
  maxItems: 5,
  description: "1 to 5 chat user ids of profiles (the profiles' `chat_user_id`), in the order shown",
});
/** Hosts as the hosted product's client sends them; the one request key in the hosted product's words. */
const HostsByChatUser = Type.Object(
  { slack_user_ids: ChatUserIds },
  { additionalProperties: false, description: 'Hosts by chat user id, as the hosted product takes them' },
);
const DateTime = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: `${description}: ISO 8601 date-time with a numeric offset or Z`,
    examples: ['2026-04-01T18:00:00-07:00'],
  });
const HttpUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'An http(s) URL' });
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

const eventFields = {
  title: Type.String({ minLength: 3, maxLength: 70, examples: ['Spring meetup'] }),
  start_date: DateTime('Start'),
  end_date: DateTime('End, after the start'),
  hosts: Type.Union([
    Type.Array(PersonRef, { minItems: 1, maxItems: 5, description: '1 to 5 hosts, in the order shown' }),
    HostsByChatUser,
  ]),
  description: RichText,
  slug: Type.Optional(
    Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9-]+$', description: 'Absent: made from the title' }),
  ),
  status: Type.Optional(StringEnum(writableStatuses, { description: 'Default published' })),
  timezone: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone; dates are then answered in its offset',
      }),
    ),
  ),
  speakers: Type.Optional(Type.Array(PersonRef, { maxItems: 5 })),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 5, description: 'Tag ids' }),
  ),
  recap: Type.Optional(NullableObject(RichText)),
  published_to: Type.Optional(
    Type.Array(Uuid, { maxItems: 20, description: 'Ids of feeds (not archived) the event is published to' }),
  ),
  allow_public_guest_list: Flag('Default false'),
  enable_registration_button: Flag('Default false'),
  is_unlisted: Flag('Default false'),
  publish_to_site: Flag('Default false'),
  triggers_webhooks: Flag('Default false; true sends calendar_event.* webhooks for this event'),
  show_end_date: Flag('Default true'),
  use_registration_btn_as_link: Flag('Default false'),
  external_speakers: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  link: Type.Optional(Nullable(HttpUrl)),
  location: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  partner_event_id: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  recording_link: Type.Optional(Nullable(HttpUrl)),
  webhook_custom_metadata: Type.Optional(
    Nullable(
      Type.String({ maxLength: 10_000, description: 'Free text carried in the webhook payloads of this event' }),
    ),
  ),
  cover_image_url: Type.Optional(Nullable(HttpUrl)),
};

// Unknown fields, nested ones too, are refused with a 400 naming each (a misspelt field is not silently a no-op);
// adding a member still drops them, as documented.
export const CreateEventBody = Type.Object(eventFields, { additionalProperties: false, ...unknownFieldsRefused });
export type CreateEventBody = Static<typeof CreateEventBody>;

/** JSON merge semantics: a field present replaces the stored one (null clears a nullable one); absent keeps it. */
export const UpdateEventBody = Type.Partial(CreateEventBody, {
  additionalProperties: false,
  minProperties: 1,
  ...unknownFieldsRefused,
});
export type UpdateEventBody = Static<typeof UpdateEventBody>;

export const EventWriteParams = Type.Object({ calendar_event_id: ShortId });

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "The event's ETag from a GET; another ETag answers 412 and changes nothing",
    }),
  ),
});

export const EventWriteResponse = One(CalendarEvent);

export const DeletedEventResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ id: ShortId }),
});
export type DeletedEventResponse = Static<typeof DeletedEventResponse>;
