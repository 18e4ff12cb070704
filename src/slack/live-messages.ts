// Slack's `message` events as posts and comments: a new message (a post, or a comment when its thread_ts is another
// message's; a broadcast reply once, keyed by its own ts), `message_changed` and `message_deleted`. Each message's
// mark (migration 017) keeps the Slack ts of the version held and its deletion, so a late original or edit never
// undoes what came after; records come from slack-messages.ts and are parsed as the import parses them.
import { isRecord, nonEmptyStringOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { deriverOf } from '../references/derive.js';
import { NeedsThread, NotYet, threadKey, type LiveContext, type Outcome } from './live-context.js';
import { namedIds, planOf, resolverOf } from './live-rows.js';
import {
  commentById,
  feedOfChannel,
  type LiveComment,
  type LivePost,
  markOf,
  postById,
  presentReactions,
  profileById,
  recountFeed,
  recountPost,
  saveMark,
} from './live.repository.js';
import { chatMessageIdOf, feedIdOf, messageIdOf, profileIdOf } from './slack-ids.js';
import { classify, recordOfMessage } from './slack-messages.js';
import { blocksOfMessage } from './slack-text.js';
import type { SlackApi } from './web-api.js';
import { profileOfAuthor } from './slack-profiles.js';
import { compareTs, isSlackTs, stampOfTs } from './slack-time.js';

/** What Slack shows in place of a thread's parent deleted while it has replies; Hearth keeps the same. */
export const DELETED_PARENT_TEXT = 'This message was deleted.';

/** The feed of a channel the connection mirrors; null when Hearth holds none or the connection leaves it out. */
export async function mirroredFeed(ctx: LiveContext, channelId: string) {
  let read = ctx.reads.feeds.get(channelId);
  if (!read) {
    read = feedOfChannel(ctx.trx, ctx.communityId, channelId);
    ctx.reads.feeds.set(channelId, read);
  }
  const feed = await read;
  if (!feed) return null;
  if (ctx.channels === null) return feed;
  const name = feed.chat_channel_name ?? feed.label;
  return ctx.channels.includes(channelId) || ctx.channels.includes(name) ? feed : null;
}

const isOwnEcho = (ctx: LiveContext, message: JsonRecord) =>
  ctx.appId !== null && stringOf(message.app_id) === ctx.appId;

/** A message's version: its `edited.ts` when later than its own ts, else its ts. */
function versionOf(message: JsonRecord, ts: string): string {
  const edited = isRecord(message.edited) && isSlackTs(message.edited.ts) ? message.edited.ts : ts;
  return compareTs(edited, ts) > 0 ? edited : ts;
}

/** The post and comment held for a message, when the caller has read them already (in this event's change). */
interface HeldRows {
  post: LivePost | undefined;
  comment: LiveComment | undefined;
}

/** Writes (or rewrites) a message's post or comment from its record; 'unchanged' when nothing visible differs. */
async function writeRecord(
  ctx: LiveContext,
  channelId: string,
  record: Record<string, unknown>,
  ts: string,
  known?: HeldRows,
): Promise<'written' | 'unchanged'> {
  const { trx, communityId, change } = ctx;
  const plan = planOf(record, change.at);
  const id = String(record.id);
  const post = plan.posts.get(id);
  const comment = plan.comments.get(id);
  const blocks = post?.blocks ?? comment?.blocks ?? null;
  const derive = deriverOf(await resolverOf(trx, communityId, namedIds(blocks)));
  const reactions = await presentReactions(trx, communityId, channelId, ts);
  if (post) {
    const body = post.body_plaintext ?? derive.plaintext(post.blocks, post.prosemirror);
    const row = {
      community_id: communityId,
      ...post.row,
      body_plaintext: body,
      read_time_minutes: post.read_time_minutes ?? derive.readTime(body),
      references: post.references ?? derive.references(post.blocks, post.prosemirror),
      ...(reactions === null ? {} : { reactions_count: reactions }),
    };
    const held = known ? known.post : await postById(trx, communityId, id);
    if (held) {
      const { comments_count: _c, latest_activity_at: _l, created_at: _d, ...rest } = row;
      const next = { ...rest, slug: held.slug ?? rest.slug, created_at: held.created_at };
      if (sameAs(held, next)) return 'unchanged';
      await trx.updateTable('posts').set(next).where('community_id', '=', communityId).where('id', '=', id).execute();
      await recountPost(trx, communityId, id);
    } else {
      // A post not held has no comments (a comment is written only under its post): its counters need no recount.
      await trx
        .insertInto('posts')
        .values({ ...row, comments_count: 0, latest_activity_at: row.created_at })
        .execute();
      ctx.later(`feed:${row.feed_id}`, () => recountFeed(trx, communityId, row.feed_id));
      await change.refresh({ feeds: [row.feed_id] });
    }
    await change.refresh({ posts: [id] });
    return 'written';
  }
  if (!comment) throw new Error(`the record of message ${ts} is neither a post nor a comment`);
  const row = {
    community_id: communityId,
    ...comment.row,
    body_plaintext: comment.body_plaintext ?? derive.plaintext(comment.blocks, null),
    references: comment.references ?? derive.references(comment.blocks, null),
    ...(reactions === null ? {} : { reactions_count: reactions }),
  };
  const held = known ? known.comment : await commentById(trx, communityId, id);
  if (held) {
    const next = { ...row, created_at: held.created_at };
    if (sameAs(held, next)) return 'unchanged';
    await trx.updateTable('comments').set(next).where('community_id', '=', communityId).where('id', '=', id).execute();
  } else {
    await trx.insertInto('comments').values(row).execute();
  }
  await recountPost(trx, communityId, row.post_id);
  await change.refresh({ posts: [row.post_id] });
  return 'written';
}

/** JSON with its keys sorted: PostgreSQL's jsonb gives objects back in its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** A stored value as comparable text: JSON (as text or parsed) canonical, booleans and counts as numbers' text. */
function comparable(value: unknown): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string' && (value.startsWith('{') || value.startsWith('['))) {
    try {
      return canonical(JSON.parse(value));
    } catch {
      return value;
    }
  }
  if (value !== null && typeof value === 'object') return canonical(value);
  return value === null || value === undefined ? '\u0000null' : String(value);
}

/** Whether every column of `next` but updated_at holds what the store holds: an edit nobody would see. */
function sameAs(held: Record<string, unknown>, next: Record<string, unknown>): boolean {
  for (const [key, value] of Object.entries(next)) {
    if (key === 'updated_at') continue;
    if (comparable(held[key]) !== comparable(value)) return false;
  }
  return true;
}

/** The record of a deleted parent kept for its replies: Slack's own tombstone text, no author, no files. */
function deletedParentRecord(channelId: string, ts: string, updatedTs: string): Record<string, unknown> {
  const created = stampOfTs(ts);
  return {
    kind: 'post',
    id: messageIdOf(channelId, ts),
    created_at: created,
    updated_at: compareTs(updatedTs, ts) > 0 ? stampOfTs(updatedTs) : created,
    author_profile_id: null,
    body_plaintext: DELETED_PARENT_TEXT,
    chat_message: {
      id: chatMessageIdOf(channelId, ts),
      message_ts: ts,
      blocks: [],
      markdown: DELETED_PARENT_TEXT,
      permalink: null,
      parent_chat_message_id: null,
      username: null,
      icon: null,
    },
    reactions_count: 0,
    file_attachments_count: 0,
    feed_id: feedIdOf(channelId),
    title: null,
    source: 'slack',
  };
}

/** The handle (chat_message.username) of the post or comment held for a message, if any. */
async function heldHandle(ctx: LiveContext, id: string): Promise<string | undefined> {
  const held = (await postById(ctx.trx, ctx.communityId, id)) ?? (await commentById(ctx.trx, ctx.communityId, id));
  let chat: unknown = held?.chat_message ?? null;
  if (typeof chat === 'string') chat = JSON.parse(chat);
  return isRecord(chat) ? nonEmptyStringOf(chat.username) : undefined;
}

/** A message's author as a profile, when Hearth holds none yet (a bot without a user, a user not yet seen). */
async function ensureAuthor(ctx: LiveContext, authorId: string, message: JsonRecord, ts: string): Promise<void> {
  const id = profileIdOf(authorId);
  if (ctx.reads.profiles.has(id)) return;
  if (await profileById(ctx.trx, ctx.communityId, id)) {
    ctx.reads.profiles.add(id);
    return;
  }
  const plan = planOf(profileOfAuthor(authorId, message, stampOfTs(ts)), ctx.change.at);
  for (const { row } of plan.profiles.values()) {
    await ctx.trx
      .insertInto('profiles')
      .values({ ...row, community_id: ctx.communityId })
      .execute();
    await ctx.change.refresh({ profiles: [row.id] });
  }
}

/**
 * Applies one message as Slack gives it (a new one, or the new version inside `message_changed`), unless Hearth
 * holds this version or a later one, or the message was deleted.
 */
export async function applyMessage(ctx: LiveContext, channelId: string, message: JsonRecord): Promise<Outcome> {
  if (isOwnEcho(ctx, message)) return 'ignored: own echo';
  const m = classify(message);
  if ('skip' in m) return `ignored: ${m.skip}`;
  if (!isSlackTs(m.ts)) return 'ignored: no ts';
  if (!(await mirroredFeed(ctx, channelId))) return 'ignored: channel not mirrored';
  const { trx, communityId } = ctx;
  const mark = await markOf(trx, communityId, channelId, m.ts);
  if (mark?.deleted_ts) return 'ignored: deleted';
  // Set once this event brought the parent (and the thread): the change wrote, whatever follows.
  let broughtParent = false;
  if (m.reply) {
    const parentTs = m.threadTs ?? m.ts;
    if (!(await postById(trx, communityId, messageIdOf(channelId, parentTs)))) {
      const parentMark = await markOf(trx, communityId, channelId, parentTs);
      if (parentMark?.deleted_ts) {
        // The parent went before this reply arrived: Slack keeps a deleted parent with replies; so does Hearth.
        await writeRecord(ctx, channelId, deletedParentRecord(channelId, parentTs, parentMark.deleted_ts), parentTs);
        broughtParent = true;
      } else {
        const fetched = await applyThread(ctx, channelId, parentTs);
        if (!fetched) throw new NotYet(`the parent ${parentTs} of reply ${m.ts} in ${channelId} is not held yet`);
        broughtParent = true;
      }
    }
  }
  const version = versionOf(message, m.ts);
  // A thread just fetched may have brought this message too.
  const current = m.reply ? await markOf(trx, communityId, channelId, m.ts) : mark;
  // Without a mark (a new message, or one only an import wrote), its rows say whether it is held; read once here.
  let known: HeldRows | undefined;
  if (!current?.version_ts) {
    // A reply is held as a comment, any other message as a post (the record made below is the same kind).
    const id = messageIdOf(channelId, m.ts);
    known = m.reply
      ? { post: undefined, comment: await commentById(trx, communityId, id) }
      : { post: await postById(trx, communityId, id), comment: undefined };
  }
  const held = current?.version_ts ?? (known?.post || known?.comment ? m.ts : null);
  if (held !== null && compareTs(version, held) <= 0)
    return broughtParent ? 'applied' : 'ignored: a later version is held';
  await ensureAuthor(ctx, m.authorId, message, m.ts);
  // Mentions render with the names the store holds (an import's context holds the workspace's lists).
  const tables = await resolverOf(trx, communityId, namedIds(blocksOfMessage(message)));
  // An edit's message rarely carries the snapshot: the handle held stays.
  const handle =
    (isRecord(message.user_profile) ? nonEmptyStringOf(message.user_profile.name) : undefined) ??
    (held === null ? undefined : await heldHandle(ctx, messageIdOf(channelId, m.ts)));
  const record = recordOfMessage(
    {
      names: {
        userName: (id) => tables.users.get(id)?.preferred_name ?? undefined,
        channelName: (id) => tables.channels.get(id)?.channel_name,
      },
      // Profiles hold no handle: the message's own snapshot of its author gives it, as users.list does the import.
      handles: new Map(handle === undefined ? [] : [[m.authorId, handle]]),
      domain: ctx.domain,
    },
    channelId,
    m,
  );
  const written = await writeRecord(ctx, channelId, record, m.ts, known);
  await saveMark(trx, {
    community_id: communityId,
    chat_channel_id: channelId,
    message_ts: m.ts,
    version_ts: version,
    deleted_ts: null,
  });
  return written === 'written' ? 'applied' : 'ignored: nothing visible changed';
}

/** `message_changed`: the new version in `message`, keyed by its own ts. */
export function applyChanged(ctx: LiveContext, channelId: string, event: JsonRecord): Promise<Outcome> {
  if (!isRecord(event.message)) return Promise.resolve('ignored: no message');
  // A message_changed without an edit stamp (Slack's language detection, unfurls) dates itself by its own ts.
  const message = event.message;
  const edited = isRecord(message.edited) && isSlackTs(message.edited.ts);
  return applyMessage(
    ctx,
    channelId,
    edited || !isSlackTs(event.ts) ? message : { ...message, edited: { ts: event.ts, hidden: true } },
  );
}

/**
 * `message_deleted`: a comment is removed; a post without comments is removed, one with comments keeps its place
 * with Slack's tombstone text and no author (its replies stay, as in Slack). The mark keeps the deletion.
 */
export async function applyDeleted(ctx: LiveContext, channelId: string, event: JsonRecord): Promise<Outcome> {
  const ts = event.deleted_ts;
  if (!isSlackTs(ts)) return 'ignored: no deleted_ts';
  if (!(await mirroredFeed(ctx, channelId))) return 'ignored: channel not mirrored';
  const { trx, communityId, change } = ctx;
  const deletedAt = isSlackTs(event.ts) ? event.ts : ts;
  const mark = await markOf(trx, communityId, channelId, ts);
  if (mark?.deleted_ts) return 'ignored: deleted';
  await saveMark(trx, {
    community_id: communityId,
    chat_channel_id: channelId,
    message_ts: ts,
    version_ts: mark?.version_ts ?? ts,
    deleted_ts: deletedAt,
  });
  const id = messageIdOf(channelId, ts);
  const comment = await commentById(trx, communityId, id);
  if (comment) {
    await trx.deleteFrom('comments').where('community_id', '=', communityId).where('id', '=', id).execute();
    await recountPost(trx, communityId, comment.post_id);
    await change.refresh({ posts: [comment.post_id] });
    return 'applied';
  }
  const post = await postById(trx, communityId, id);
  if (!post) return 'applied';
  if (Number(post.comments_count) > 0) {
    await writeRecord(ctx, channelId, deletedParentRecord(channelId, ts, deletedAt), ts);
    return 'applied';
  }
  await trx.deleteFrom('posts').where('community_id', '=', communityId).where('id', '=', id).execute();
  ctx.later(`feed:${post.feed_id}`, () => recountFeed(trx, communityId, post.feed_id));
  await change.refresh({ posts: [id], feeds: [post.feed_id] });
  return 'applied';
}

/**
 * A thread whose parent Hearth lacks, read for this event before its change (see NeedsThread), applied parent first
 * then its replies (versions already held are left as they are): true once the parent is held.
 */
async function applyThread(ctx: LiveContext, channelId: string, parentTs: string): Promise<boolean> {
  const messages = ctx.threads.get(threadKey(channelId, parentTs));
  if (!messages) {
    if (ctx.canFetch) throw new NeedsThread(channelId, parentTs);
    return false;
  }
  const parent = messages.find((message) => message.ts === parentTs);
  if (!parent) return false;
  await applyMessage(ctx, channelId, parent);
  if (!(await postById(ctx.trx, ctx.communityId, messageIdOf(channelId, parentTs)))) return false;
  for (const reply of messages) if (reply !== parent) await applyMessage(ctx, channelId, reply);
  return true;
}

/** Every message of a thread through the Web API (conversations.replies, every page); none when Slack has none. */
export async function readThread(api: SlackApi, channelId: string, threadTs: string): Promise<JsonRecord[]> {
  const messages: JsonRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await api('conversations.replies', { channel: channelId, ts: threadTs, limit: 200, cursor });
    if (Array.isArray(page.messages)) messages.push(...page.messages.filter(isRecord));
    const next = isRecord(page.response_metadata) ? stringOf(page.response_metadata.next_cursor) : undefined;
    cursor = next === '' ? undefined : next;
  } while (cursor !== undefined);
  return messages;
}
