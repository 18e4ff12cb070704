// Slack's live `reaction_added` and `reaction_removed` on chat_reactions (migration 016): one row per (message,
// emoji, user) set present or absent, applied only when the event is later than the row's last change, so that a
// replay changes nothing and a removal that arrives before its add still ends absent.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

export interface ReactionChange {
  communityId: string;
  channelId: string;
  messageTs: string;
  emoji: string;
  userId: string;
  present: boolean;
  /** The event's `event_ts`. */
  changedTs: string;
}

/** Orders Slack ts values as numbers would, without losing their microseconds. */
function laterTs(a: string, b: string): boolean {
  const [as = '0', af = ''] = a.split('.');
  const [bs = '0', bf = ''] = b.split('.');
  const seconds = Number(as) - Number(bs);
  return seconds > 0 || (seconds === 0 && Number(af.padEnd(6, '0')) > Number(bf.padEnd(6, '0')));
}

/**
 * Sets one user's reaction present or absent unless a later change is held: true when the set of present
 * reactions changed (the message's reactions_count then follows).
 */
export async function applyReactionChange(db: Kysely<Database>, change: ReactionChange): Promise<boolean> {
  const key = {
    community_id: change.communityId,
    chat_channel_id: change.channelId,
    message_ts: change.messageTs,
    emoji: change.emoji,
    chat_user_id: change.userId,
  };
  const held = await db
    .selectFrom('chat_reactions')
    .select(['present', 'changed_ts'])
    .where('community_id', '=', key.community_id)
    .where('chat_channel_id', '=', key.chat_channel_id)
    .where('message_ts', '=', key.message_ts)
    .where('emoji', '=', key.emoji)
    .where('chat_user_id', '=', key.chat_user_id)
    .executeTakeFirst();
  if (held && !laterTs(change.changedTs, held.changed_ts)) return false;
  if (held) {
    await db
      .updateTable('chat_reactions')
      .set({ present: change.present, changed_ts: change.changedTs })
      .where('community_id', '=', key.community_id)
      .where('chat_channel_id', '=', key.chat_channel_id)
      .where('message_ts', '=', key.message_ts)
      .where('emoji', '=', key.emoji)
      .where('chat_user_id', '=', key.chat_user_id)
      .execute();
    return Boolean(held.present) !== change.present;
  }
  await db
    .insertInto('chat_reactions')
    .values({ ...key, present: change.present, changed_ts: change.changedTs })
    .execute();
  return change.present;
}
