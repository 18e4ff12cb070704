// Reactions kept per (message, emoji, user) in chat_reactions, for every Slack writer: history (an export, a Web
// API sync) sets each message's whole set, live events add and remove one reaction; a post's or comment's
// `reactions_count` is derived from the present rows. Slack lists at most some of a reaction's users (about 50):
// the users it does not list are kept as one row per (message, emoji) whose user is `unlisted:N`, counting N.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { chunk, upsertRows } from '../db/batch.js';

/** A message's key in Slack: its channel and `ts`. */
export interface MessageKey {
  channelId: string;
  ts: string;
}

/** One reaction: the emoji's name as Slack gives it (no colons) and who reacted (or `unlisted:N`). */
export interface Reaction {
  emoji: string;
  userId: string;
}

/** The `changed_ts` of a row history set: older than any live event, so history never undoes what one did. */
export const HISTORY_TS = '0';

/** The user of the row standing for `count` reactors Slack counted without listing them. */
export const unlistedUser = (count: number): string => `unlisted:${count}`;
const UNLISTED = 'unlisted:';

/** Rows per statement: 7 values each, under both stores' bind-parameter limits. */
const ROWS_PER_STATEMENT = 2000;
/** A row's key: one per (message, emoji, user). */
const REACTION_KEY: ('community_id' | 'chat_channel_id' | 'message_ts' | 'emoji' | 'chat_user_id')[] = [
  'community_id',
  'chat_channel_id',
  'message_ts',
  'emoji',
  'chat_user_id',
];
/** Messages per look-up or delete. */
const KEYS_PER_STATEMENT = 1000;

function byChannel<T extends MessageKey>(keys: readonly T[]): Map<string, T[]> {
  const channels = new Map<string, T[]>();
  for (const key of keys) {
    const list = channels.get(key.channelId);
    if (list) list.push(key);
    else channels.set(key.channelId, [key]);
  }
  return channels;
}

/**
 * Sets the reactions history shows for each message: the message's rows history set before are replaced by
 * `reactions`; a row a live event set (added or removed, `changed_ts` past '0') is left as it is. `fresh` (no
 * history rows can exist for these messages: the community held no reactions) skips the replacing.
 */
export async function putHistoryReactions(
  db: Kysely<Database>,
  communityId: string,
  messages: readonly (MessageKey & { reactions: readonly Reaction[] })[],
  fresh: boolean,
): Promise<void> {
  if (!fresh) {
    for (const [channelId, keys] of byChannel(messages)) {
      for (const part of chunk(keys, KEYS_PER_STATEMENT)) {
        await db
          .deleteFrom('chat_reactions')
          .where('community_id', '=', communityId)
          .where('chat_channel_id', '=', channelId)
          .where(
            'message_ts',
            'in',
            part.map((key) => key.ts),
          )
          .where('changed_ts', '=', HISTORY_TS)
          .execute();
      }
    }
  }
  const rows = messages.flatMap(({ channelId, ts, reactions }) =>
    reactions.map(({ emoji, userId }) => ({
      community_id: communityId,
      chat_channel_id: channelId,
      message_ts: ts,
      emoji,
      chat_user_id: userId,
      present: true,
      changed_ts: HISTORY_TS,
    })),
  );
  // Into a community without reactions nothing can conflict but a key given twice, which gets the same values:
  // the batched upsert (PostgreSQL's COPY in an import) instead of a statement parsed for every 2,000 rows.
  if (fresh) return upsertRows(db, 'chat_reactions', rows, REACTION_KEY);
  for (const part of chunk(rows, ROWS_PER_STATEMENT)) {
    await db
      .insertInto('chat_reactions')
      .values(part)
      .onConflict((oc) => oc.columns(REACTION_KEY).doNothing())
      .execute();
  }
}

/** Whether any reaction of the community was set by a live event (then counts may differ from history's). */
export async function hasLiveReactions(db: Kysely<Database>, communityId: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_reactions')
    .select('message_ts')
    .where('community_id', '=', communityId)
    .where('changed_ts', '<>', HISTORY_TS)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the community holds any reaction row at all. */
export async function hasReactions(db: Kysely<Database>, communityId: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_reactions')
    .select('message_ts')
    .where('community_id', '=', communityId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const keyOf = (channelId: string, ts: string) => `${channelId}\u0000${ts}`;

/** Each message's reaction count from its present rows (an `unlisted:N` row counting N); absent when it has none. */
export async function reactionCounts(
  db: Kysely<Database>,
  communityId: string,
  keys: readonly MessageKey[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const [channelId, list] of byChannel(keys)) {
    for (const part of chunk(list, KEYS_PER_STATEMENT)) {
      const rows = await db
        .selectFrom('chat_reactions')
        .select([
          'message_ts',
          sql<number | string>`sum(case when chat_user_id like ${`${UNLISTED}%`} then cast(substr(chat_user_id, ${
            UNLISTED.length + 1
          }) as integer) else 1 end)`.as('reactions'),
        ])
        .where('community_id', '=', communityId)
        .where('chat_channel_id', '=', channelId)
        .where(
          'message_ts',
          'in',
          part.map((key) => key.ts),
        )
        .where('present', '=', true)
        .groupBy('message_ts')
        .execute();
      for (const row of rows) counts.set(keyOf(channelId, row.message_ts), Number(row.reactions));
    }
  }
  return counts;
}

/** A message as a record of Hearth: the post or comment that holds it. */
export interface CountedMessage extends MessageKey {
  table: 'posts' | 'comments';
  id: string;
}

/**
 * Sets `reactions_count` of each message's post or comment to the count of its present rows, where it differs.
 * Returns the posts and comments changed; the caller renders the posts' fragments again through its change.
 */
export async function refreshReactionCounts(
  db: Kysely<Database>,
  communityId: string,
  messages: readonly CountedMessage[],
): Promise<{ posts: string[]; comments: string[] }> {
  const changed = { posts: [] as string[], comments: [] as string[] };
  for (const part of chunk(messages, KEYS_PER_STATEMENT)) {
    const counts = await reactionCounts(db, communityId, part);
    for (const table of ['posts', 'comments'] as const) {
      const ofTable = part.filter((m) => m.table === table);
      if (ofTable.length === 0) continue;
      const held = await db
        .selectFrom(table)
        .select(['id', 'reactions_count'])
        .where('community_id', '=', communityId)
        .where(
          'id',
          'in',
          ofTable.map((m) => m.id),
        )
        .execute();
      const current = new Map(held.map((row) => [row.id, Number(row.reactions_count)]));
      for (const message of ofTable) {
        const was = current.get(message.id);
        const count = counts.get(keyOf(message.channelId, message.ts)) ?? 0;
        if (was === undefined || was === count) continue;
        await db
          .updateTable(table)
          .set({ reactions_count: count })
          .where('community_id', '=', communityId)
          .where('id', '=', message.id)
          .execute();
        changed[table].push(message.id);
      }
    }
  }
  return changed;
}
