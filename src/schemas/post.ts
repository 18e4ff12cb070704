// The post (spec 2.8) with its chat message (2.9) and feed summary, and the comment record of DECISIONS.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableObject, ShortId, Timestamp, Url, Uuid } from './common.js';
import { Profile } from './profile.js';
import { ChatBlocks, References } from './references.js';

export const FeedSummary = Type.Object({ id: Uuid, label: Type.String(), slug: Type.String() });
export type FeedSummary = Static<typeof FeedSummary>;

export const ChatMessage = Type.Object({
  id: Nullable(Uuid),
  message_ts: Nullable(
    Type.Number({ description: 'Decimal timestamp of the chat message', examples: [1741600000.123456] }),
  ),
  blocks: ChatBlocks,
  markdown: Nullable(Type.String()),
  permalink: Nullable(Url),
  parent_chat_message_id: Nullable(Uuid),
  username: Nullable(Type.String()),
  icon: Nullable(Url),
});
export type ChatMessage = Static<typeof ChatMessage>;

/** The spec leaves the document's inner structure open, so every key of it is passed through as stored. */
export const ProsemirrorDoc = Type.Object(
  {},
  { additionalProperties: true, description: 'ProseMirror document, as imported' },
);
export type ProsemirrorDoc = Record<string, unknown>;

export const Post = Type.Object({
  id: ShortId,
  created_at: Timestamp,
  updated_at: Timestamp,
  content_created_at: Nullable(Timestamp),
  latest_activity_at: Timestamp,
  title: Nullable(Type.String()),
  slug: Nullable(Type.String()),
  feed_id: Uuid,
  post_detail_display_format: Nullable(Type.String()),
  author_profile_id: Nullable(Uuid),
  read_time_minutes: Type.Integer(),
  source: Nullable(Type.String()),
  file_attachments_count: Type.Integer(),
  reactions_count: Type.Integer(),
  comments_count: Type.Integer(),
  body_plaintext: Nullable(Type.String()),
  body_prosemirror: NullableObject(ProsemirrorDoc),
  chat_message: NullableObject(ChatMessage),
  cover_image_file_id: Nullable(Type.String()),
  cover_image_url: Nullable(Url),
  author: NullableObject(Profile),
  feed: FeedSummary,
  references: References,
});
export type Post = Static<typeof Post>;

export const ParentPost = Type.Object({
  id: ShortId,
  created_at: Timestamp,
  title: Nullable(Type.String()),
  slug: Nullable(Type.String()),
});
export type ParentPost = Static<typeof ParentPost>;

export const Comment = Type.Object({
  id: ShortId,
  created_at: Timestamp,
  updated_at: Timestamp,
  parent_post_id: ShortId,
  parent_comment_id: Nullable(ShortId),
  feed_id: Uuid,
  author_profile_id: Nullable(Uuid),
  body_plaintext: Nullable(Type.String()),
  chat_message: NullableObject(ChatMessage),
  reactions_count: Type.Integer(),
  file_attachments_count: Type.Integer(),
  author: NullableObject(Profile),
  feed: FeedSummary,
  references: References,
  parent_post: ParentPost,
});
export type Comment = Static<typeof Comment>;
