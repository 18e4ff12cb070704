// Demo posts over the last 120 days, each followed by its thread of comments (replies to replies included).
import type { CommentRecord, PostRecord } from '../import/records.js';
import { articleDoc } from './articles.js';
import { toMarkdown, type RichText } from './blocks.js';
import { DAY, HOUR, MINUTE, messageTs, moment, permalink, wire, type Moment } from './clock.js';
import { ARCHIVED_BEFORE_DAYS } from './catalog.js';
import { someone } from './content.js';
import { commentBlocks, postBlocks } from './post-bodies.js';
import type { Random } from './random.js';
import type { TextGen } from './text.js';
import { postTitle } from './titles.js';
import type { DemoFeed, DemoProfile, World } from './world.js';

export type PostLine = PostRecord & { kind: 'post' };
export type CommentLine = CommentRecord & { kind: 'comment' };

const SPAN_DAYS = 120;
/** Comments per post, drawn uniformly from these: a mean of 3.5 for the default demo, exactly 2 when scaled. */
const RICH_THREADS = [0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8];
const LEAN_THREADS = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5];
/** An archived feed was busy while it lasted. */
const ARCHIVED_WEIGHT_BOOST = 2.5;

const fewMostly = (r: Random, max: number): number => Math.floor((max + 1) * r.next() ** 3);

function chatMessage(
  feed: DemoFeed,
  author: DemoProfile,
  at: Moment,
  blocks: RichText[],
  id: string,
  thread?: { of: Moment; id: string },
) {
  return {
    id,
    message_ts: messageTs(at),
    blocks,
    markdown: toMarkdown(blocks),
    permalink: permalink(feed.channelId, at, thread?.of),
    parent_chat_message_id: thread?.id ?? null,
    username: author.name,
    icon: author.image72,
  };
}

function postAuthor(world: World, r: Random, feed: DemoFeed): DemoProfile {
  if (feed.kind === 'announcements')
    return r.chance(0.25) ? world.bot : r.pick(world.admins.length > 0 ? world.admins : world.members);
  return someone(world, r);
}

function postRecord(
  world: World,
  g: TextGen,
  feed: DemoFeed,
  author: DemoProfile,
  at: Moment,
): { record: PostLine; messageId: string | null } {
  const r = g.random;
  const id = world.ids.next();
  const created = wire(at);
  const edited = r.chance(0.2) ? Math.min(world.now, at.ms + r.between(1, 48 * 60) * MINUTE) : null;
  const article = r.chance(world.rich ? 0.15 : 0.03);
  const messageId = article ? null : r.uuid();
  const cover = article || feed.kind === 'show-and-tell' ? r.chance(0.5) : r.chance(0.05);
  const record: PostLine = {
    kind: 'post',
    id,
    created_at: created,
    updated_at: edited === null ? created : wire(edited),
    content_created_at: created,
    title: postTitle(g, feed.kind),
    feed_id: feed.id,
    post_detail_display_format: article ? 'article' : 'chat_message',
    author_profile_id: author.id,
    source: article ? 'web' : 'chat',
    file_attachments_count: feed.kind === 'show-and-tell' ? fewMostly(r, 4) : fewMostly(r, 1),
    reactions_count: fewMostly(r, feed.kind === 'announcements' ? 60 : 25),
    chat_message:
      messageId === null ? null : chatMessage(feed, author, at, postBlocks(world, g, feed, author), messageId),
    cover_image_file_id: null,
    cover_image_url: null,
  };
  if (article) record.body_prosemirror = articleDoc(world, g);
  if (cover) {
    record.cover_image_file_id = r.uuid();
    record.cover_image_url = `https://images.example.com/covers/${id}.jpg`;
  }
  return { record, messageId };
}

function* thread(
  world: World,
  g: TextGen,
  feed: DemoFeed,
  post: PostLine,
  author: DemoProfile,
  at: Moment,
  messageId: string | null,
): Generator<CommentLine> {
  const r = g.random;
  const size = r.pick(world.rich ? RICH_THREADS : LEAN_THREADS);
  // Replies come within a week, sooner for the newest posts, and never after now.
  const window = Math.min(7 * DAY, world.now - at.ms - 2 * MINUTE);
  if (size === 0 || window <= 0) return;
  const ids: string[] = [];
  for (let k = 0; k < size; k++) {
    const when = moment(at.ms + MINUTE + window * ((k + r.next()) / size) ** 2, r.int(1000));
    const commenter = r.chance(0.3) && !author.isBot ? author : someone(world, r);
    const id = world.ids.next();
    const replyTo = ids.length > 0 && r.chance(0.35) ? r.pick(ids) : null;
    const created = wire(when);
    yield {
      kind: 'comment',
      id,
      created_at: created,
      updated_at: r.chance(0.1) ? wire(Math.min(world.now, when.ms + r.between(1, 6 * 60) * MINUTE)) : created,
      parent_post_id: post.id,
      parent_comment_id: replyTo,
      author_profile_id: commenter.id,
      chat_message: chatMessage(
        feed,
        commenter,
        when,
        commentBlocks(world, g, author),
        r.uuid(),
        messageId ? { of: at, id: messageId } : undefined,
      ),
      reactions_count: fewMostly(r, 12),
      file_attachments_count: r.chance(0.05) ? 1 : 0,
    };
    ids.push(id);
  }
}

/** `count` posts in time order, each followed at once by its comments. */
export function* postRecords(world: World, g: TextGen, count: number): Generator<PostLine | CommentLine> {
  const r = g.random;
  const start = world.now - SPAN_DAYS * DAY;
  const archivedUntil = world.now - ARCHIVED_BEFORE_DAYS * DAY;
  const weighted = (withArchived: boolean) =>
    world.feeds.flatMap((feed) =>
      feed.archived && !withArchived
        ? []
        : [[feed, feed.archived ? feed.weight * ARCHIVED_WEIGHT_BOOST : feed.weight] as const],
    );
  const early = weighted(true);
  const late = weighted(false);
  for (let i = 0; i < count; i++) {
    // Evenly spread and strictly increasing, so the stream is in time order without sorting.
    const ms = start + ((SPAN_DAYS * DAY - HOUR) * (i + r.next())) / count;
    const at = moment(ms, r.int(1000));
    const feed = r.weighted(ms < archivedUntil ? early : late);
    const author = postAuthor(world, r, feed);
    const { record, messageId } = postRecord(world, g, feed, author, at);
    yield record;
    yield* thread(world, g, feed, record, author, at, messageId);
  }
}
