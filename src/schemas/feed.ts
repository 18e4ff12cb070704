// The feed record of `GET /feeds` and `GET /feeds/{feed_id}`: the hosted product's 19 keys.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Url, Uuid } from './common.js';
import { ChatBlocks, References } from './references.js';

export const listViewFormats = ['snippet', 'compact', 'card'] as const;

export const Feed = Type.Object({
  id: Uuid,
  label: Type.String(),
  slug: Type.String(),
  is_archived: Type.Boolean(),
  is_unlisted: Type.Boolean(),
  banner_file_id: Nullable(Type.String()),
  banner_file_url: Nullable(Url),
  emoji_icon: Nullable(Type.String({ description: 'An emoji code such as `:heart:`', examples: [':heart:'] })),
  list_view_display_format: StringEnum(listViewFormats, { description: 'How the feed lists its posts' }),
  post_detail_display_format: Type.String({
    description: 'How a post of the feed is shown, such as `discussion`',
    examples: ['discussion'],
  }),
  show_in_navigation_menu: Type.Boolean(),
  is_site_posting_enabled: Type.Boolean(),
  chat_channel_id: Nullable(Type.String()),
  chat_channel_name: Nullable(Type.String()),
  chat_channel_num_members: Type.Integer({ minimum: 0 }),
  chat_channel_purpose_chat_blocks: ChatBlocks,
  chat_channel_purpose_chat_blocks_references: References,
  chat_channel_topic_chat_blocks: ChatBlocks,
  chat_channel_topic_chat_blocks_references: References,
});
export type Feed = Static<typeof Feed>;
