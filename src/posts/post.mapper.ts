// Post and comment rows become the API's post (spec 2.8) and comment record (DECISIONS, Search) here.
import { readJson } from '../db/json.js';
import type { FeedRow } from '../feeds/feeds.repository.js';
import { toWire } from '../lib/timestamps.js';
import type { ChatMessage, Comment, FeedSummary, ParentPost, Post, ProsemirrorDoc } from '../schemas/post.js';
import type { Profile } from '../schemas/profile.js';
import { emptyReferences, type References } from '../schemas/references.js';
import type { CommentRow } from './comments.repository.js';
import type { ParentPostRow, PostRow } from './posts.repository.js';

export function toFeedSummary(feed: Pick<FeedRow, 'id' | 'label' | 'slug'>): FeedSummary {
  return { id: feed.id, label: feed.label, slug: feed.slug };
}

/** The import stores the chat message with every key of spec 2.9 (see import-parse.ts). */
const toChatMessage = (stored: unknown): ChatMessage | null => readJson<ChatMessage | null>(stored);

function toReferences(stored: unknown): References {
  return readJson<References | null>(stored) ?? emptyReferences();
}

export function toPost(row: PostRow, author: Profile | null, feed: FeedSummary): Post {
  return {
    id: row.id,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    content_created_at: toWire(row.content_created_at),
    latest_activity_at: toWire(row.latest_activity_at),
    title: row.title,
    slug: row.slug,
    feed_id: row.feed_id,
    post_detail_display_format: row.post_detail_display_format,
    author_profile_id: row.author_profile_id,
    read_time_minutes: Number(row.read_time_minutes),
    source: row.source,
    file_attachments_count: Number(row.file_attachments_count),
    reactions_count: Number(row.reactions_count),
    comments_count: Number(row.comments_count),
    body_plaintext: row.body_plaintext,
    body_prosemirror: readJson<ProsemirrorDoc | null>(row.body_prosemirror),
    chat_message: toChatMessage(row.chat_message),
    cover_image_file_id: row.cover_image_file_id,
    cover_image_url: row.cover_image_url,
    author,
    feed,
    references: toReferences(row.references),
  };
}

export function toParentPost(row: ParentPostRow): ParentPost {
  return { id: row.id, created_at: toWire(row.created_at), title: row.title, slug: row.slug };
}

/** `feed` is the parent post's feed: a comment lives wherever its post does. */
export function toComment(row: CommentRow, author: Profile | null, feed: FeedSummary, parent: ParentPostRow): Comment {
  return {
    id: row.id,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    parent_post_id: row.post_id,
    parent_comment_id: row.parent_comment_id,
    feed_id: parent.feed_id,
    author_profile_id: row.author_profile_id,
    body_plaintext: row.body_plaintext,
    chat_message: toChatMessage(row.chat_message),
    reactions_count: Number(row.reactions_count),
    file_attachments_count: Number(row.file_attachments_count),
    author,
    feed,
    references: toReferences(row.references),
    parent_post: toParentPost(parent),
  };
}
