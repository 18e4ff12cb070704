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

/** The import stores the chat message with every key of spec 2.9 (see import/parse-rows.ts). */
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

/** A post as an export line (the import format): the API post without the author and feed it embeds. */
export function toPostRecord(row: PostRow): Omit<Post, 'author' | 'feed'> {
  // toPost stays one object literal (the fragments build every post answer through it); the export pays for the copy.
  const { author: _author, feed: _feed, ...record } = toPost(row, null, { id: row.feed_id, label: '', slug: '' });
  return record;
}

export function toParentPost(row: ParentPostRow): ParentPost {
  return { id: row.id, created_at: toWire(row.created_at), title: row.title, slug: row.slug };
}

/** A comment as an export line (the import format): the comment's own fields, without what it takes from its post. */
export function toCommentRecord(row: CommentRow): Omit<Comment, 'feed_id' | 'author' | 'feed' | 'parent_post'> {
  return {
    id: row.id,
    created_at: toWire(row.created_at),
    updated_at: toWire(row.updated_at),
    parent_post_id: row.post_id,
    parent_comment_id: row.parent_comment_id,
    author_profile_id: row.author_profile_id,
    body_plaintext: row.body_plaintext,
    chat_message: toChatMessage(row.chat_message),
    reactions_count: Number(row.reactions_count),
    file_attachments_count: Number(row.file_attachments_count),
    references: toReferences(row.references),
  };
}

/** `feed` is the parent post's feed: a comment lives wherever its post does. */
export function toComment(row: CommentRow, author: Profile | null, feed: FeedSummary, parent: ParentPostRow): Comment {
  // The key order here is not the answer's: the response schema's serializer writes the keys in its own order.
  return { ...toCommentRecord(row), feed_id: parent.feed_id, author, feed, parent_post: toParentPost(parent) };
}
