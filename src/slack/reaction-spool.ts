// The reactions of every message a Slack import or sync writes, kept on disk as its records are made (a large
// export holds millions), then written into chat_reactions in the import's own transaction, after its records: the
// rows commit or roll back with them, and posts' and comments' counts are derived from them where live events
// changed some.
import { appendFileSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import {
  hasLiveReactions,
  hasReactions,
  putHistoryReactions,
  refreshReactionCounts,
  type CountedMessage,
  type Reaction,
} from '../reactions/chat-reactions.repository.js';
import type { Change } from '../writes/write-runner.js';

/** One message as spooled: channel, ts, its record's table and id, then its reactions as [emoji, user] pairs. */
type Line = [string, string, 'posts' | 'comments', string, [string, string][]];

const FLUSH_LINES = 5000;
const MESSAGES_PER_BATCH = 2000;

export class ReactionSpool {
  private dir: string | null = null;
  private pending: string[] = [];
  /** Messages, and reactions among them, added so far. */
  private messages = 0;
  private reactions = 0;

  /**
   * `everyMessage`: note messages without reactions too, whose earlier rows from history the write replaces (the
   * community held reactions when the import began); into one without, only messages with reactions are noted.
   */
  constructor(private readonly everyMessage = true) {}

  /** A message written (with or without reactions: history's set replaces what an earlier import kept). */
  add(channelId: string, ts: string, kind: 'post' | 'comment', id: string, reactions: readonly Reaction[]): void {
    if (reactions.length === 0 && !this.everyMessage) return;
    const line: Line = [
      channelId,
      ts,
      kind === 'post' ? 'posts' : 'comments',
      id,
      reactions.map((r) => [r.emoji, r.userId]),
    ];
    this.messages++;
    this.reactions += reactions.length;
    this.pending.push(JSON.stringify(line));
    if (this.pending.length >= FLUSH_LINES) this.flush();
  }

  private get path(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), 'hearth-reactions-'));
    return join(this.dir, 'messages.ndjson');
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    appendFileSync(this.path, `${this.pending.join('\n')}\n`, { mode: 0o600 });
    this.pending = [];
  }

  private async *batches(): AsyncGenerator<Line[]> {
    this.flush();
    let batch: Line[] = [];
    const input = createReadStream(this.path);
    try {
      for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
        if (text === '') continue;
        batch.push(JSON.parse(text) as Line);
        if (batch.length >= MESSAGES_PER_BATCH) {
          yield batch;
          batch = [];
        }
      }
    } finally {
      input.destroy();
    }
    if (batch.length > 0) yield batch;
  }

  /**
   * Writes the rows, in the import's transaction once its records are written. Where the community held no
   * reaction a live event set, every count is history's own, as the records carry it; otherwise the counts of the
   * messages written are derived from the rows again and their posts rendered again.
   */
  async write(trx: Kysely<Database>, change: Change, communityId: string): Promise<void> {
    const fresh = !(await hasReactions(trx, communityId));
    // Into a community without reactions, messages without any have nothing to replace.
    if (this.messages === 0 || (fresh && this.reactions === 0)) return;
    const live = !fresh && (await hasLiveReactions(trx, communityId));
    const posts: string[] = [];
    for await (const batch of this.batches()) {
      await putHistoryReactions(
        trx,
        communityId,
        batch.map(([channelId, ts, , , pairs]) => ({
          channelId,
          ts,
          reactions: pairs.map(([emoji, userId]) => ({ emoji, userId })),
        })),
        fresh,
      );
      if (!live) continue;
      const messages: CountedMessage[] = batch.map(([channelId, ts, table, id]) => ({ channelId, ts, table, id }));
      posts.push(...(await refreshReactionCounts(trx, communityId, messages)).posts);
    }
    if (posts.length > 0) await change.refresh({ posts });
  }

  close(): void {
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  }
}
