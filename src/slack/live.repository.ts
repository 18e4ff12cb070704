// SQL of the live mirror: the rows a Slack event touches (posts, comments, feeds, profiles), read and written one at
// a time inside the change that applies the event, and each message's marks (migration 017). The statements run for
// every event are compiled once (db/compiled-query.ts).
import { sql, type Kysely, type Selectable } from 'kysely';
import { reusedQuery } from '../db/compiled-query.js';
import type {
  CommentsTable,
  Database,
  FeedsTable,
  PostsTable,
  ProfilesTable,
  SlackMessageMarksTable,
} from '../db/database.js';

export type LivePost = Selectable<PostsTable>;
export type LiveComment = Selectable<CommentsTable>;
export type MessageMark = Selectable<SlackMessageMarksTable>;

const postQuery = reusedQuery<[string, string], LivePost>((db, $) =>
  db.selectFrom('posts').selectAll().where('community_id', '=', $(0)).where('id', '=', $(1)),
);
export const postById = (db: Kysely<Database>, communityId: string, id: string) => postQuery.first(db, communityId, id);

const commentQuery = reusedQuery<[string, string], LiveComment>((db, $) =>
  db.selectFrom('comments').selectAll().where('community_id', '=', $(0)).where('id', '=', $(1)),
);
export const commentById = (db: Kysely<Database>, communityId: string, id: string) =>
  commentQuery.first(db, communityId, id);

const feedQuery = reusedQuery<
  [string, string],
  Pick<Selectable<FeedsTable>, 'id' | 'label' | 'chat_channel_name' | 'is_archived' | 'chat_channel_num_members'>
>((db, $) =>
  db
    .selectFrom('feeds')
    .select(['id', 'label', 'chat_channel_name', 'is_archived', 'chat_channel_num_members'])
    .where('community_id', '=', $(0))
    .where('chat_channel_id', '=', $(1)),
);
/** The feed of a channel, with what the mirror checks and changes. */
export const feedOfChannel = (db: Kysely<Database>, communityId: string, channelId: string) =>
  feedQuery.first(db, communityId, channelId);

const profileQuery = reusedQuery<[string, string], Selectable<ProfilesTable>>((db, $) =>
  db.selectFrom('profiles').selectAll().where('community_id', '=', $(0)).where('id', '=', $(1)),
);
export const profileById = (db: Kysely<Database>, communityId: string, id: string) =>
  profileQuery.first(db, communityId, id);

const markQuery = reusedQuery<[string, string, string], MessageMark>((db, $) =>
  db
    .selectFrom('slack_message_marks')
    .selectAll()
    .where('community_id', '=', $(0))
    .where('chat_channel_id', '=', $(1))
    .where('message_ts', '=', $(2)),
);
export const markOf = (db: Kysely<Database>, communityId: string, channelId: string, ts: string) =>
  markQuery.first(db, communityId, channelId, ts);

const saveMarkQuery = reusedQuery<[string, string, string, string, string | null]>((db, $) =>
  db
    .insertInto('slack_message_marks')
    .values({ community_id: $(0), chat_channel_id: $(1), message_ts: $(2), version_ts: $(3), deleted_ts: $(4) })
    .onConflict((oc) =>
      oc.columns(['community_id', 'chat_channel_id', 'message_ts']).doUpdateSet((eb) => ({
        version_ts: eb.ref('excluded.version_ts'),
        deleted_ts: eb.ref('excluded.deleted_ts'),
      })),
    ),
);
export async function saveMark(db: Kysely<Database>, mark: MessageMark): Promise<void> {
  await saveMarkQuery.affected(
    db,
    mark.community_id,
    mark.chat_channel_id,
    mark.message_ts,
    mark.version_ts,
    mark.deleted_ts,
  );
}

const reactionsQuery = reusedQuery<[string, string, string], { rows: number; present: number | null }>((db, $) =>
  db
    .selectFrom('chat_reactions')
    .select([
      (eb) => eb.fn.countAll<number>().as('rows'),
      sql<number>`sum(case when present then 1 else 0 end)`.as('present'),
    ])
    .where('community_id', '=', $(0))
    .where('chat_channel_id', '=', $(1))
    .where('message_ts', '=', $(2)),
);
/** Reactions present on a message (chat_reactions, migration 016), or null when none was ever recorded there. */
export async function presentReactions(
  db: Kysely<Database>,
  communityId: string,
  channelId: string,
  ts: string,
): Promise<number | null> {
  const row = await reactionsQuery.first(db, communityId, channelId, ts);
  return row && Number(row.rows) > 0 ? Number(row.present) : null;
}

/** How many comments a post has, and the newest one's time: its counters after a comment came or went. */
const recountPostQuery = reusedQuery<[string, string]>((db, $) =>
  db
    .updateTable('posts')
    .set({
      comments_count: sql<number>`(select count(*) from comments c where c.community_id = posts.community_id and c.post_id = posts.id)`,
      latest_activity_at: sql<string>`coalesce((select case when max(c.created_at) > posts.created_at then max(c.created_at) else posts.created_at end from comments c where c.community_id = posts.community_id and c.post_id = posts.id), posts.created_at)`,
    })
    .where('community_id', '=', $(0))
    .where('id', '=', $(1)),
);
export async function recountPost(db: Kysely<Database>, communityId: string, postId: string): Promise<void> {
  await recountPostQuery.affected(db, communityId, postId);
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
