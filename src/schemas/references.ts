// Rich-text blocks (spec 2.6) and the references object (2.7) derived from them.
import { Type, type Static } from '@sinclair/typebox';
import { NullableObject, Url, Uuid } from './common.js';

/** A block of the chat product's nested rich-text format; its inner elements are kept as given. */
export const ChatBlock = Type.Object(
  { type: Type.String(), elements: Type.Optional(Type.Array(Type.Unknown())) },
  { additionalProperties: true },
);
export const ChatBlocks = NullableObject(Type.Array(ChatBlock));
export type ChatBlock = Static<typeof ChatBlock>;

export const References = Type.Object({
  mentioned_chat_users: Type.Array(
    Type.Object({
      profile_id: Uuid,
      preferred_name: Type.Union([Type.String(), Type.Null()]),
      chat_user_id: Type.String(),
    }),
  ),
  mentioned_chat_channels: Type.Array(
    Type.Object({
      chat_channel: Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
      feed: Type.Object({ id: Uuid, label: Type.String(), slug: Type.String() }),
    }),
  ),
  // An emoji's alias may be unknown (null), as any scalar inside a nested object (DECISIONS).
  custom_emojis: Type.Array(
    Type.Object({ alias: Type.Union([Type.String(), Type.Null()]), name: Type.String(), url: Url }),
  ),
  urls: Type.Array(
    Type.Object({
      order_seen: Type.Integer(),
      is_embedded_media: Type.Boolean(),
      is_image: Type.Boolean(),
      is_video: Type.Boolean(),
      url: Url,
    }),
  ),
});
export type References = Static<typeof References>;

export const emptyReferences = (): References => ({
  mentioned_chat_users: [],
  mentioned_chat_channels: [],
  custom_emojis: [],
  urls: [],
});
