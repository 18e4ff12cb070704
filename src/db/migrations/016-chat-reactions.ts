// Reactions as Slack keeps them: one row per (message, emoji, user), so a post's or comment's `reactions_count` is
// derived, an import of the same export twice counts each reaction once, and live add/remove events apply as a set.
// A row is keyed by Slack's own message key (channel, ts), so a reaction may arrive before the message it is on.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function chatReactionsMigration(store: StoreName) {
  const bool = columnType(store, 'bool');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chat_reactions')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('chat_channel_id', 'text', (c) => c.notNull())
        .addColumn('message_ts', 'text', (c) => c.notNull())
        // The emoji's name as Slack gives it, without colons (`thumbsup`, `+1::skin-tone-2`).
        .addColumn('emoji', 'text', (c) => c.notNull())
        .addColumn('chat_user_id', 'text', (c) => c.notNull())
        // False once removed: the row stays as a tombstone, so an older add that arrives late does not bring it back.
        .addColumn('present', bool, (c) => c.notNull())
        // Slack's ts of the event that set `present` ('0' for a reaction an export or a history read brought):
        // a change applies only when its ts is later.
        .addColumn('changed_ts', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_reactions_pk', [
          'community_id',
          'chat_channel_id',
          'message_ts',
          'emoji',
          'chat_user_id',
        ])
        .execute();
    },
  };
}
