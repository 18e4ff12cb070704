// One Slack message as a post (top level) or a comment (a thread reply, a broadcast reply included) import record:
// ids from (channel, ts), text and title from slack-text.ts, reactions and files counted, `chat_message` filled.
import type { NameResolvers } from '../content/rich-text.js';
import { isRecord, nonEmptyStringOf, recordsOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { chatMessageIdOf, feedIdOf, messageIdOf, profileIdOf } from './slack-ids.js';
import { blocksOfMessage, filesBlockOf, httpUrlOf, plaintextOf, titleOf } from './slack-text.js';
import { compareTs, isSlackTs, stampOfTs } from './slack-time.js';
import { unlistedUser, type Reaction } from '../reactions/chat-reactions.repository.js';

/** Subtypes that are something someone wrote; every other subtype (joins, topic changes, pins…) is skipped. */
const WRITTEN = new Set(['bot_message', 'file_share', 'me_message', 'thread_broadcast', 'reply_broadcast']);

export interface MessageContext {
  names: NameResolvers;
  /** Users' handles (`name`), for chat_message.username. */
  handles: Map<string, string>;
  /** The workspace's domain (`acme` of acme.slack.com), to build permalinks; null leaves them null. */
  domain: string | null;
}

export type Classified =
  | { skip: string }
  | { ts: string; threadTs: string | null; authorId: string; reply: boolean; message: JsonRecord };

/** What a message is: skipped (and why), or a post or reply with its author. */
export function classify(message: JsonRecord): Classified {
  const subtype = stringOf(message.subtype);
  if (subtype !== undefined && !WRITTEN.has(subtype)) return { skip: subtype };
  if (message.hidden === true) return { skip: 'hidden' };
  const ts = stringOf(message.ts) ?? '';
  const authorId = nonEmptyStringOf(message.user) ?? nonEmptyStringOf(message.bot_id);
  if (authorId === undefined) return { skip: 'no_author' };
  const threadTs = isSlackTs(message.thread_ts) ? message.thread_ts : null;
  const reply =
    subtype === 'thread_broadcast' || subtype === 'reply_broadcast' || (threadTs !== null && threadTs !== ts);
  return { ts, threadTs, authorId, reply, message };
}

/** Unlisted reactors counted per reaction at most (a hostile `count` would otherwise make the count overflow). */
const MAX_UNLISTED = 1_000_000;

/**
 * A message's reactions, one per (emoji, user): the users Slack lists, and the reactors its `count` adds beyond them
 * (it lists about 50) as one `unlisted:N` row per emoji. Its `reactions_count` is their number.
 */
export function reactionsOf(message: JsonRecord): Reaction[] {
  const byEmoji = new Map<string, { users: Set<string>; count: number }>();
  for (const reaction of recordsOf(message.reactions)) {
    const emoji = nonEmptyStringOf(reaction.name);
    if (emoji === undefined) continue;
    const entry = byEmoji.get(emoji) ?? { users: new Set<string>(), count: 0 };
    for (const user of Array.isArray(reaction.users) ? reaction.users : [])
      if (typeof user === 'string' && user !== '') entry.users.add(user);
    const count = reaction.count;
    if (typeof count === 'number' && Number.isInteger(count)) entry.count = Math.max(entry.count, count);
    byEmoji.set(emoji, entry);
  }
  const reactions: Reaction[] = [];
  for (const [emoji, { users, count }] of byEmoji) {
    for (const userId of users) reactions.push({ emoji, userId });
    const unlisted = Math.min(count - users.size, MAX_UNLISTED);
    if (unlisted > 0) reactions.push({ emoji, userId: unlistedUser(unlisted) });
  }
  return reactions;
}

/** The reactions_count of a message's reactions: an `unlisted:N` row counts N. */
export const reactionCountOf = (reactions: readonly Reaction[]): number =>
  reactions.reduce((n, r) => n + (r.userId.startsWith('unlisted:') ? Number(r.userId.slice(9)) : 1), 0);

/** A message's files; a legacy `file_share` carries one `file`. Deleted ones (tombstones) are gone. */
export function filesOf(message: JsonRecord): JsonRecord[] {
  const files = recordsOf(message.files);
  if (files.length === 0 && isRecord(message.file)) files.push(message.file);
  return files.filter((file) => file.mode !== 'tombstone');
}

function permalinkOf(context: MessageContext, channelId: string, ts: string, threadTs: string | null): string | null {
  if (context.domain === null) return null;
  const base = `https://${context.domain}.slack.com/archives/${channelId}/p${ts.replace('.', '')}`;
  return threadTs !== null && threadTs !== ts ? `${base}?thread_ts=${threadTs}&cid=${channelId}` : base;
}

/** The post or comment record of a classified message of `channelId`. */
export function recordOfMessage(
  context: MessageContext,
  channelId: string,
  m: Exclude<Classified, { skip: string }>,
): Record<string, unknown> {
  const { message, ts, threadTs, authorId } = m;
  const own = blocksOfMessage(message);
  const files = filesOf(message);
  const filesBlock = filesBlockOf(files);
  const blocks = filesBlock === null ? own : [...(own ?? []), filesBlock];
  // The title comes from the message's own text; the plain text goes on with its files' names.
  const ownText = plaintextOf(own, context.names);
  const plaintext = filesBlock === null ? ownText : plaintextOf(blocks, context.names);
  const created = stampOfTs(ts);
  // An edit stamped before the message (clock skew) leaves it as written.
  const editedTs = isRecord(message.edited) && isSlackTs(message.edited.ts) ? message.edited.ts : ts;
  // Most messages were never edited: their `ts` is not compared with itself.
  const updated = editedTs !== ts && compareTs(editedTs, ts) > 0 ? stampOfTs(editedTs) : created;
  const icons = isRecord(message.icons) ? message.icons : {};
  const parentTs = m.reply ? (threadTs ?? ts) : null;
  const chatMessage = {
    id: chatMessageIdOf(channelId, ts),
    message_ts: ts,
    blocks,
    markdown: stringOf(message.text) ?? null,
    permalink: permalinkOf(context, channelId, ts, parentTs),
    parent_chat_message_id: parentTs === null ? null : chatMessageIdOf(channelId, parentTs),
    username: nonEmptyStringOf(message.username) ?? context.handles.get(authorId) ?? null,
    icon: httpUrlOf(icons.image_72) ?? httpUrlOf(icons.image_48) ?? httpUrlOf(icons.image_64) ?? null,
  };
  const common = {
    id: messageIdOf(channelId, ts),
    created_at: created,
    updated_at: updated,
    author_profile_id: profileIdOf(authorId),
    body_plaintext: plaintext,
    chat_message: chatMessage,
    reactions_count: reactionCountOf(reactionsOf(message)),
    file_attachments_count: files.length,
  };
  if (parentTs !== null) return { kind: 'comment', ...common, parent_post_id: messageIdOf(channelId, parentTs) };
  return { kind: 'post', ...common, feed_id: feedIdOf(channelId), title: titleOf(ownText, files), source: 'slack' };
}
