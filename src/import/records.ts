// The NDJSON import format: one schema per record kind, lenient where the API's own output is (nulls),
// strict on ids and types. Records carry the fields the API shows for them.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SHORT_ID_PATTERN, UUID_PATTERN } from '../lib/ids.js';
import { listViewFormats } from '../schemas/feed.js';
import { ChatBlock, References } from '../schemas/references.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Str = Type.String({ maxLength: 1_000_000 });
const Text = Opt(Str);
const Flag = Type.Optional(Type.Boolean());
const Int = Type.Optional(Type.Integer({ minimum: 0 }));
const Stamp = Type.String({ maxLength: 64, description: 'ISO 8601 or wire timestamp' });
const ShortId = Type.String({ pattern: SHORT_ID_PATTERN });
const Uuid = Type.String({ pattern: UUID_PATTERN });
const Blocks = Opt(Type.Array(ChatBlock));
// References given in a record must have the exact shape the API answers with, or reading it back would fail.
const ReferencesIn = Opt(References);

// `kind` is allowed inside too: a profile or tag record may be nested as it stands in a file.
export const ProfileRecord = Type.Object({
  kind: Type.Optional(Type.Literal('profile')),
  profile_id: Type.Optional(Uuid),
  id: Type.Optional(Uuid),
  created_at: Type.Optional(Stamp),
  preferred_name: Text,
  preferred_image_original: Text,
  preferred_image_1024: Text,
  preferred_image_512: Text,
  preferred_image_192: Text,
  preferred_image_72: Text,
  preferred_image_48: Text,
  preferred_image_32: Text,
  preferred_image_24: Text,
  first_name: Text,
  last_name: Text,
  email: Opt(Type.String({ maxLength: 254 })),
  chat_user_id: Text,
  chat_is_admin: Flag,
  chat_is_bot: Flag,
  chat_first_name: Text,
  chat_last_name: Text,
  chat_image_72: Text,
  chat_image_original: Text,
  is_deactivated: Flag,
});
export type ProfileRecord = Static<typeof ProfileRecord>;

export const TagRecord = Type.Object({
  kind: Type.Optional(Type.Literal('tag')),
  id: Type.String({ minLength: 1, maxLength: 64 }),
  created_at: Type.Optional(Stamp),
  tag_group_id: Text,
  label: Type.String({ minLength: 1, maxLength: 200 }),
});
export type TagRecord = Static<typeof TagRecord>;

export const FeedRecord = Type.Object({
  id: Uuid,
  created_at: Type.Optional(Stamp),
  label: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Opt(Type.String({ maxLength: 200 })),
  is_archived: Flag,
  is_unlisted: Flag,
  banner_file_id: Text,
  banner_file_url: Text,
  emoji_icon: Text,
  list_view_display_format: Opt(Type.Union(listViewFormats.map((f) => Type.Literal(f)))),
  post_detail_display_format: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  show_in_navigation_menu: Flag,
  is_site_posting_enabled: Flag,
  chat_channel_id: Text,
  chat_channel_name: Text,
  chat_channel_num_members: Int,
  chat_channel_purpose_chat_blocks: Blocks,
  chat_channel_purpose_chat_blocks_references: ReferencesIn,
  chat_channel_topic_chat_blocks: Blocks,
  chat_channel_topic_chat_blocks_references: ReferencesIn,
});
export type FeedRecord = Static<typeof FeedRecord>;

// Nested profiles and tags may be whole objects (upserted) or bare ids (DECISIONS).
const ProfileRef = Type.Union([Uuid, ProfileRecord]);
const TagRef = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), TagRecord]);

export const EventRecord = Type.Object({
  id: ShortId,
  created_at: Type.Optional(Stamp),
  updated_at: Type.Optional(Stamp),
  title: Text,
  slug: Text,
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('needs_approval'), Type.Literal('published')])),
  start_date: Stamp,
  end_date: Opt(Stamp),
  timezone: Opt(Type.String({ maxLength: 64 })),
  allow_public_guest_list: Flag,
  enable_registration_button: Flag,
  is_unlisted: Flag,
  publish_to_site: Flag,
  triggers_webhooks: Flag,
  show_end_date: Flag,
  use_registration_btn_as_link: Flag,
  description_chat_blocks: Blocks,
  description_chat_blocks_references: ReferencesIn,
  recap_chat_blocks: Blocks,
  recap_chat_blocks_references: ReferencesIn,
  external_speakers: Text,
  link: Text,
  location: Text,
  partner_event_id: Text,
  recording_link: Text,
  webhook_custom_metadata: Text,
  attendees_count: Int,
  cover_image_url: Text,
  /** The hosted product's reminders, kept as given (their shape is not published). */
  reminders_config: Opt(Type.Array(Type.Unknown(), { maxItems: 100 })),
  published_to: Type.Optional(
    Type.Array(
      Type.Object({
        chat_channel_id: Text,
        chat_message_permalink: Text,
        feed_id: Opt(Uuid),
      }),
    ),
  ),
  hosts: Type.Optional(Type.Array(ProfileRef)),
  speakers: Type.Optional(Type.Array(ProfileRef)),
  tags: Type.Optional(Type.Array(TagRef)),
});
export type EventRecord = Static<typeof EventRecord>;

const ChatMessageIn = Opt(
  Type.Object({
    id: Text,
    message_ts: Opt(Type.Union([Type.Number(), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' })])),
    blocks: Blocks,
    markdown: Text,
    permalink: Text,
    parent_chat_message_id: Text,
    username: Text,
    icon: Text,
  }),
);

export const PostRecord = Type.Object({
  id: ShortId,
  created_at: Stamp,
  updated_at: Type.Optional(Stamp),
  content_created_at: Opt(Stamp),
  latest_activity_at: Opt(Stamp),
  title: Text,
  slug: Text,
  feed_id: Uuid,
  post_detail_display_format: Text,
  author_profile_id: Opt(Uuid),
  author: Opt(ProfileRef),
  /** As the API shows it; must name the record's own feed_id. */
  feed: Opt(Type.Object({ id: Uuid, label: Type.Optional(Str), slug: Type.Optional(Str) })),
  read_time_minutes: Opt(Type.Integer({ minimum: 0 })),
  source: Text,
  file_attachments_count: Int,
  reactions_count: Int,
  comments_count: Opt(Type.Integer({ minimum: 0 })),
  body_plaintext: Text,
  // A document of its own format, kept as given.
  body_prosemirror: Opt(Type.Object({}, { additionalProperties: true })),
  chat_message: ChatMessageIn,
  cover_image_file_id: Text,
  cover_image_url: Text,
  references: ReferencesIn,
});
export type PostRecord = Static<typeof PostRecord>;

export const CommentRecord = Type.Object({
  id: ShortId,
  created_at: Stamp,
  updated_at: Type.Optional(Stamp),
  parent_post_id: Type.Optional(ShortId),
  post_id: Type.Optional(ShortId),
  parent_comment_id: Opt(ShortId),
  /** As search shows them; the parent post decides the comment's feed, and parent_post must name that post. */
  feed_id: Opt(Uuid),
  feed: Opt(Type.Object({ id: Uuid, label: Type.Optional(Str), slug: Type.Optional(Str) })),
  parent_post: Opt(Type.Object({ id: ShortId }, { additionalProperties: true })),
  author_profile_id: Opt(Uuid),
  author: Opt(ProfileRef),
  body_plaintext: Text,
  chat_message: ChatMessageIn,
  reactions_count: Int,
  file_attachments_count: Int,
  references: ReferencesIn,
});
export type CommentRecord = Static<typeof CommentRecord>;

// A badge's or a group's member as the API shows it (its chat user id is the profile's: not read), or a bare profile id.
const BadgeMemberIn = Type.Union([
  Uuid,
  Type.Object({ profile_id: Uuid, chat_user_id: Text, assigned_at: Type.Optional(Stamp) }),
]);
const GroupMemberIn = Type.Union([
  Uuid,
  Type.Object({ profile_id: Uuid, chat_user_id: Text, added_at: Type.Optional(Stamp) }),
]);

const memberSetFields = {
  id: Uuid,
  created_at: Type.Optional(Stamp),
  updated_at: Type.Optional(Stamp),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Text,
  /** As the API shows it; the members given decide it. */
  members_count: Opt(Type.Integer({ minimum: 0 })),
};

export const BadgeRecord = Type.Object({
  ...memberSetFields,
  members: Type.Optional(Type.Array(BadgeMemberIn)),
});
export type BadgeRecord = Static<typeof BadgeRecord>;

export const GroupRecord = Type.Object({
  ...memberSetFields,
  members: Type.Optional(Type.Array(GroupMemberIn)),
});
export type GroupRecord = Static<typeof GroupRecord>;

export const recordSchemas = {
  feed: FeedRecord,
  profile: ProfileRecord,
  tag: TagRecord,
  calendar_event: EventRecord,
  post: PostRecord,
  comment: CommentRecord,
  badge: BadgeRecord,
  group: GroupRecord,
} as const;
export type RecordKind = keyof typeof recordSchemas;
export const recordKinds = Object.keys(recordSchemas) as RecordKind[];

/**
 * The fields a record of each kind may carry: `kind` and its schema's properties. Anything else is an
 * unknown field, refused unless the import is told to ignore them (a typo must not silently become null).
 */
export const knownFields = {} as Record<RecordKind, readonly string[]>;
for (const kind of recordKinds)
  knownFields[kind] = [...new Set(['kind', ...Object.keys(recordSchemas[kind].properties)])];
