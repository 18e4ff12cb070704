// Feed rows become the API's feed record (the hosted product's 19 keys) here.
import { readJson } from '../db/json.js';
import type { Feed } from '../schemas/feed.js';
import { emptyReferences, type ChatBlock, type References } from '../schemas/references.js';
import type { FeedRow } from './feeds.repository.js';

const blocks = (stored: unknown): ChatBlock[] | null => readJson<ChatBlock[] | null>(stored ?? null);
const references = (stored: unknown): References => readJson<References | null>(stored ?? null) ?? emptyReferences();

export function toFeed(row: FeedRow): Feed {
  return {
    id: row.id,
    label: row.label,
    slug: row.slug,
    is_archived: Boolean(row.is_archived),
    is_unlisted: Boolean(row.is_unlisted),
    banner_file_id: row.banner_file_id,
    banner_file_url: row.banner_file_url,
    emoji_icon: row.emoji_icon,
    list_view_display_format: row.list_view_display_format as Feed['list_view_display_format'],
    post_detail_display_format: row.post_detail_display_format,
    show_in_navigation_menu: Boolean(row.show_in_navigation_menu),
    is_site_posting_enabled: Boolean(row.is_site_posting_enabled),
    chat_channel_id: row.chat_channel_id,
    chat_channel_name: row.chat_channel_name,
    chat_channel_num_members: Number(row.chat_channel_num_members),
    chat_channel_purpose_chat_blocks: blocks(row.chat_channel_purpose_chat_blocks),
    chat_channel_purpose_chat_blocks_references: references(row.chat_channel_purpose_chat_blocks_references),
    chat_channel_topic_chat_blocks: blocks(row.chat_channel_topic_chat_blocks),
    chat_channel_topic_chat_blocks_references: references(row.chat_channel_topic_chat_blocks_references),
  };
}
