// SQL of the live mirror: the rows a Slack event touches (posts, comments, feeds, profiles), read and written one at
// a time inside the change that applies the event, and each message's marks (migration 017).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CommentsTable, Database, PostsTable, SlackMessageMarksTable } from '../db/database.js';

export type LivePost = Selectable<PostsTable>;
export type LiveComment = Selectable<CommentsTable>;
export type MessageMark = Selectable<SlackMessageMarksTable>;

export const postById = (db: Kysely<Database>, communityId: string, id: string) =>
  db.selectFrom('posts').selectAll().where('community_id', '=', communityId).where('id', '=', id).executeTakeFirst();

export const commentById = (db: Kysely<Database>, communityId: string, id: string) =>
  db.selectFrom('comments').selectAll().where('community_id', '=', communityId).where('id', '=', id).executeTakeFirst();

/** The feed of a channel, with what the mirror checks and changes. */
export const feedOfChannel = (db: Kysely<Database>, communityId: string, channelId: string) =>
  db
    .selectFrom('feeds')
    .select(['id', 'label', 'chat_channel_name', 'is_archived', 'chat_channel_num_members'])
    .where('community_id', '=', communityId)
    .where('chat_channel_id', '=', channelId)
    .executeTakeFirst();

export const profileById = (db: Kysely<Database>, communityId: string, id: string) =>
  db.selectFrom('profiles').selectAll().where('community_id', '=', communityId).where('id', '=', id).executeTakeFirst();

export const markOf = (db: Kysely<Database>, communityId: string, channelId: string, ts: string) =>
  db
    .selectFrom('slack_message_marks')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('chat_channel_id', '=', channelId)
    .where('message_ts', '=', ts)
    .executeTakeFirst();

export async function saveMark(db: Kysely<Database>, mark: MessageMark): Promise<void> {
  await db
    .insertInto('slack_message_marks')
    .values(mark)
    .onConflict((oc) =>
      oc
        .columns(['community_id', 'chat_channel_id', 'message_ts'])
        .doUpdateSet({ version_ts: mark.version_ts, deleted_ts: mark.deleted_ts }),
    )
    .execute();
}

/** Reactions present on a message (chat_reactions, migration 016), or null when none was ever recorded there. */
export async function presentReactions(
  db: Kysely<Database>,
  communityId: string,
  channelId: string,
  ts: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('chat_reactions')
    .select([
      (eb) => eb.fn.countAll<number>().as('rows'),
      sql<number>`sum(case when present then 1 else 0 end)`.as('present'),
    ])
    .where('community_id', '=', communityId)
    .where('chat_channel_id', '=', channelId)
    .where('message_ts', '=', ts)
    .executeTakeFirst();
  return row && Number(row.rows) > 0 ? Number(row.present) : null;
}

/** How many comments a post has, and the newest one's time: its counters after a comment came or went. */
export async function recountPost(db: Kysely<Database>, communityId: string, postId: string): Promise<void> {
  await db
    .updateTable('posts')
    .set({
      comments_count: sql<number>`(select count(*) from comments c where c.community_id = posts.community_id and c.post_id = posts.id)`,
      latest_activity_at: sql<string>`coalesce((select case when max(c.created_at) > posts.created_at then max(c.created_at) else posts.created_at end from comments c where c.community_id = posts.community_id and c.post_id = posts.id), posts.created_at)`,
    })
    .where('community_id', '=', communityId)
    .where('id', '=', postId)
    .execute();
}

export async function recountFeed(db: Kysely<Database>, communityId: string, feedId: string): Promise<void> {
  await db
    .updateTable('feeds')
    .set({
      posts_count: sql<number>`(select count(*) from posts p where p.community_id = feeds.community_id and p.feed_id = feeds.id)`,
    })
    .where('community_id', '=', communityId)
    .where('id', '=', feedId)
    .execute();
}
