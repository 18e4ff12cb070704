// The messages of one channel, parents before their replies, as import records: threads checked (a reply whose
// parent is missing is counted and named, never written), a message seen twice written once (a broadcast reply is
// in both the channel's history and its thread), authors the user list lacks written as profiles first.
import { isRecord, type JsonRecord } from '../content/loose-json.js';
import type { SlackChannel } from './slack-feeds.js';
import type { ReactionSpool } from './reaction-spool.js';
import {
  classify,
  filesOf,
  reactionCountOf,
  reactionsOf,
  recordOfMessage,
  type MessageContext,
} from './slack-messages.js';
import { profileOfAuthor } from './slack-profiles.js';
import { ORPHANS_NAMED, countSkipped, type SlackTally } from './slack-tally.js';
import { compareTs, isSlackTs, stampOfTs } from './slack-time.js';

export interface HistoryContext extends MessageContext {
  /** Authors with a profile in this import so far: the user list's, and those written here. */
  authors: Set<string>;
  tally: SlackTally;
  /** Where each message written is noted with its reactions, for chat_reactions; none in a dry run. */
  reactions?: ReactionSpool;
}

/** A message with its place in its day file and its `ts` as two numbers (seconds, microseconds). */
interface Sortable {
  message: JsonRecord;
  position: number;
  seconds: number;
  micros: number;
}

function sortable(message: JsonRecord, ts: string, position: number): Sortable {
  const dot = ts.indexOf('.');
  return dot < 0
    ? { message, position, seconds: Number(ts), micros: 0 }
    : { message, position, seconds: Number(ts.slice(0, dot)), micros: Number(ts.slice(dot + 1).padEnd(6, '0')) };
}

/** A message that is not an object or has no valid `ts`: the source is malformed there. */
export class SlackMessageError extends Error {}

export class ChannelHistory {
  /** `ts` of this channel's posts so far: the parents a reply may name. */
  private readonly posts = new Set<string>();
  private readonly written = new Set<string>();
  /** The position (from 1) in the messages given of the message the last record came from. */
  position = 0;
  /**
   * Of the last record: its message's `latest_reply` when it is a thread's parent whose replies go on after it (they
   * may sit in later day files), else null.
   */
  threadEnd: string | null = null;
  /** The `ts` of the latest message given so far (the last of a day file once its records are read). */
  latestTs: string | null = null;

  constructor(
    private readonly context: HistoryContext,
    private readonly channel: SlackChannel,
  ) {}

  /** Records of `messages` (oldest first among themselves; parents given before, or among, their replies). */
  *records(messages: readonly unknown[]): Generator<Record<string, unknown>> {
    const { tally } = this.context;
    const valid: Sortable[] = [];
    messages.forEach((message, index) => {
      if (!isRecord(message) || !isSlackTs(message.ts))
        throw new SlackMessageError(`message ${index + 1} is not a message object with a valid 'ts'`);
      valid.push(sortable(message, message.ts, index + 1));
    });
    // By their `ts` as compareTs orders them, its two numbers read once per message, not once per comparison.
    valid.sort((a, b) => a.seconds - b.seconds || a.micros - b.micros);
    const last = valid.at(-1)?.message.ts as string | undefined;
    if (last !== undefined && (this.latestTs === null || compareTs(last, this.latestTs) > 0)) this.latestTs = last;
    for (const { message, position } of valid) {
      this.position = position;
      this.threadEnd = null;
      tally.messages++;
      const m = classify(message);
      if ('skip' in m) {
        countSkipped(tally, m.skip);
        continue;
      }
      if (this.written.has(m.ts)) continue;
      const parentTs = m.threadTs ?? m.ts;
      if (m.reply && !this.posts.has(parentTs)) {
        tally.orphanReplies++;
        const name = `#${this.channel.name} ${parentTs}`;
        if (tally.orphansNamed.length < ORPHANS_NAMED && !tally.orphansNamed.includes(name))
          tally.orphansNamed.push(name);
        continue;
      }
      this.written.add(m.ts);
      if (!m.reply) this.posts.add(m.ts);
      if (!this.context.authors.has(m.authorId)) {
        this.context.authors.add(m.authorId);
        yield profileOfAuthor(m.authorId, message, stampOfTs(m.ts));
      }
      const files = filesOf(message);
      tally.files += files.length;
      tally.hiddenFiles += files.filter((file) => file.mode === 'hidden_by_limit').length;
      const reactions = reactionsOf(message);
      tally.reactions += reactionCountOf(reactions);
      const record = recordOfMessage(this.context, this.channel.id, m);
      const latestReply = message.latest_reply;
      if (!m.reply && isSlackTs(latestReply) && compareTs(latestReply, m.ts) > 0) this.threadEnd = latestReply;
      this.context.reactions?.add(this.channel.id, m.ts, m.reply ? 'comment' : 'post', record.id as string, reactions);
      yield record;
    }
  }
}
