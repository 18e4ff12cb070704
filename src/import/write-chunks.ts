// Writes an import chunk by chunk inside one transaction while the next chunk is parsed, then what needs the
// whole file: link checks, derived feed references, the counters memory could not give, the search index (one
// pass, bulk) and the fragments not rendered with their rows.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { postFragments } from '../rendering/fragment-refresh.js';
import { insertFragments, nextCommunityVersion, writeFragments } from '../fragments/fragments.repository.js';
import { chunk, insertRows, upsertRows } from '../db/batch.js';
import { createDeriver } from '../references/derive.js';
import type { Change } from '../writes/write-runner.js';
import type { importWebhooks } from './announce-webhooks.js';
import { DERIVED, type ChunkRows, type FinishResult } from './derive-chunks.js';
import { ImportError, maxProblems, type ImportProblem } from './problems.js';
import { checkIndex, refreshFeedCounts, refreshPostActivity, type PlanIndex } from './check-in-store.js';

/**
 * Writes rows of which the store holds those in `held` (by id): the others with `insert`, those with `update`;
 * every row with `update` when `held` is null (not known).
 */
async function writeSplit<T>(
  rows: readonly T[],
  held: Set<string> | null,
  idOf: (row: T) => string,
  insert: (rows: readonly T[]) => Promise<void>,
  update: (rows: readonly T[]) => Promise<void>,
): Promise<void> {
  if (held === null) return update(rows);
  if (held.size === 0) return insert(rows);
  await insert(rows.filter((row) => !held.has(idOf(row))));
  await update(rows.filter((row) => held.has(idOf(row))));
}

const registeredCount = {
  attendees_count: sql`case when calendar_events.attendees_from_registrations then calendar_events.attendees_count else excluded.attendees_count end`,
};

/** Posts or comments of a chunk: new ones inserted, those the store holds upserted (see writeSplit). */
const writeRecords = (
  db: Kysely<Database>,
  table: 'posts' | 'comments',
  rows: ChunkRows['posts'],
  held: Set<string> | null,
) =>
  writeSplit(
    rows,
    held,
    (row) => String(row['id']),
    (part) => insertRows(db, table, part),
    (part) => upsertRows(db, table, part),
  );

/**
 * The posts among `ids` that the store holds, with their feeds, in key order, which the key index answers: without
 * the order SQLite walked every post of the community instead (each of its secondary indexes holds both columns),
 * for every chunk (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export const heldPosts = (db: Kysely<Database>, communityId: string, ids: readonly string[]) =>
  db
    .selectFrom('posts')
    .select(['id', 'feed_id'])
    .where('community_id', '=', communityId)
    .where('id', 'in', ids)
    .orderBy('id');

/** E-mails of a chunk's profiles that another profile holds in the store: writing them would break its unique index. */
async function takenEmails(db: Kysely<Database>, communityId: string, rows: ChunkRows): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const owner = new Map<string, string>();
  for (const claim of rows.emails) {
    const previous = owner.get(claim.email_key);
    if (previous !== undefined && previous !== claim.id)
      problems.push({
        line: claim.line,
        reason: `profile: e-mail '${claim.email}' already belongs to profile '${previous}'`,
      });
    owner.set(claim.email_key, claim.id);
  }
  for (const part of chunk(rows.emails, 5000)) {
    const found = await db
      .selectFrom('profiles')
      .select(['id', 'email_key'])
      .where('community_id', '=', communityId)
      .where(
        'email_key',
        'in',
        part.map((c) => c.email_key),
      )
      .execute();
    for (const row of found) {
      const claim = part.find((c) => c.email_key === row.email_key && c.id !== row.id);
      if (claim)
        problems.push({
          line: claim.line,
          reason: `profile: e-mail '${row.email_key}' already belongs to profile '${row.id}'`,
        });
    }
  }
  return problems;
}

export class ImportStream {
  /** Feeds whose posts_count the store counts at the end (into a populated community). */
  private readonly feeds = new Set<string>();
  /** Posts the store held already whose comments the file counted: the store counts them all at the end. */
  private readonly recount = new Set<string>();
  /** Posts the store held that comments of the file moved away from: counted and rendered again at the end. */
  private readonly left = new Set<string>();
  /**
   * The community's version of the posts' fragments written with their rows: rendered by the worker from the rows
   * as the store gives them back (derive-chunks.ts), not read back at the end; only posts whose counters or derived
   * fields the store changes afterwards are rendered again.
   */
  private version: number | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    /** The write runner's change the import is: its fragments are refreshed and its messages queued through it. */
    private readonly change: Change,
    private readonly communityId: string,
    private readonly empty: boolean,
    /** The import's webhook messages, queued in the same transaction. */
    private readonly webhooks: Awaited<ReturnType<typeof importWebhooks>>,
  ) {}

  /** Writes one chunk; returns the problems that stop the import instead (e-mails already taken). */
  async write(rows: ChunkRows): Promise<ImportProblem[]> {
    const { db, communityId } = this;
    const problems = rows.emails.length > 0 ? await takenEmails(db, communityId, rows) : [];
    if (problems.length > 0) return problems;
    await this.webhooks.note(rows);
    // A chunk of records new to the store is inserted (on PostgreSQL, copied straight into its tables).
    const put = rows.fresh ? insertRows : upsertRows;
    await put(db, 'feeds', rows.feeds);
    await put(db, 'profiles', rows.profiles);
    await put(db, 'tags', rows.tags);
    if (rows.events.length > 0) {
      // An event whose count follows its API registrations keeps that count; the file's applies to the others.
      if (rows.fresh) await insertRows(db, 'calendar_events', rows.events);
      else await upsertRows(db, 'calendar_events', rows.events, undefined, registeredCount);
      // An event the store holds, or given twice in the file, has its lists replaced.
      if (!rows.fresh) {
        for (const part of chunk(
          rows.events.map((e) => String(e['id'])),
          5000,
        )) {
          for (const table of ['event_profiles', 'event_tags', 'event_publications'] as const) {
            await db.deleteFrom(table).where('community_id', '=', communityId).where('event_id', 'in', part).execute();
          }
        }
      }
      await insertRows(db, 'event_profiles', rows.eventProfiles);
      await insertRows(db, 'event_tags', rows.eventTags);
      await insertRows(db, 'event_publications', rows.eventPublications);
    }
    await this.writeMemberSets(rows);
    if (rows.posts.length > 0) {
      // Into an empty community a chunk's posts are all new unless the file gave one before (then all upserted).
      const held = rows.fresh ? new Set<string>() : this.empty ? null : await this.heldPostsOf(rows);
      await writeRecords(db, 'posts', rows.posts, held);
      this.version ??= await nextCommunityVersion(db, communityId);
      const fragments = postFragments(communityId, rows.postFragments, this.version);
      // A post the store did not hold has no fragment (posts are deleted only with their community): its fragment
      // is inserted, where an upsert went through a staging table, slower
      // (measured: bench/analysis.md, 'Figures behind the code's choices').
      await writeSplit(
        fragments,
        held,
        (fragment) => fragment.id,
        (part) => insertFragments(db, part),
        (part) => writeFragments(db, part),
      );
    }
    if (rows.comments.length > 0) {
      const held = rows.fresh ? new Set<string>() : this.empty ? null : await this.heldCommentsOf(rows.comments);
      await writeRecords(db, 'comments', rows.comments, held);
    }
    return [];
  }

  /** Badges and groups, with their members: a record the store holds, or given twice, has its members replaced. */
  private async writeMemberSets(rows: ChunkRows): Promise<void> {
    const { db, communityId } = this;
    const put = rows.fresh ? insertRows : upsertRows;
    const kinds = [
      { table: 'badges', members: 'badge_members', key: 'badge_id', rows: rows.badges, memberRows: rows.badgeMembers },
      { table: 'groups', members: 'group_members', key: 'group_id', rows: rows.groups, memberRows: rows.groupMembers },
    ] as const;
    for (const kind of kinds) {
      if (kind.rows.length === 0) continue;
      await put(db, kind.table, kind.rows);
      if (!rows.fresh) {
        for (const part of chunk(
          kind.rows.map((row) => String(row['id'])),
          5000,
        )) {
          await db
            .deleteFrom(kind.members)
            .where('community_id', '=', communityId)
            .where(kind.key, 'in', part)
            .execute();
        }
      }
      await insertRows(db, kind.members, kind.memberRows);
    }
  }

  /**
   * The posts of a chunk that the store holds. A post moved to another feed changes the count of the feed it left
   * too: the feeds of both are counted again at the end, and so is a held post whose comments the file counted.
   */
  private async heldPostsOf(rows: ChunkRows): Promise<Set<string>> {
    const held = new Set<string>();
    for (const part of chunk(
      rows.posts.map((p) => String(p['id'])),
      5000,
    )) {
      for (const row of await heldPosts(this.db, this.communityId, part).execute()) {
        this.feeds.add(row.feed_id);
        held.add(row.id);
      }
    }
    for (const post of rows.posts) this.feeds.add(String(post['feed_id']));
    for (const id of rows.countedPosts) if (held.has(id)) this.recount.add(id);
    return held;
  }

  /**
   * The comments the store holds among these; comments it holds under another post than the file gives: the
   * posts they leave are counted again.
   */
  private async heldCommentsOf(comments: ChunkRows['comments']): Promise<Set<string>> {
    const postOf = new Map(comments.map((comment) => [String(comment['id']), String(comment['post_id'])]));
    const held = new Set<string>();
    for (const part of chunk([...postOf.keys()], 5000)) {
      const rows = await this.db
        .selectFrom('comments')
        .select(['id', 'post_id'])
        .where('community_id', '=', this.communityId)
        .where('id', 'in', part)
        .execute();
      for (const row of rows) {
        held.add(row.id);
        if (row.post_id !== postOf.get(row.id)) this.left.add(row.post_id);
      }
    }
    return held;
  }

  /** Throws an ImportError for links and e-mails of the whole file that the store refuses. */
  async check(index: PlanIndex): Promise<void> {
    const problems = await checkIndex(this.db, this.communityId, index);
    if (problems.length > 0) throw new ImportError(problems.slice(0, maxProblems), '', problems.length > maxProblems);
  }

  /** Everything that needs the whole file, once it is checked. */
  async finish(result: FinishResult): Promise<void> {
    const { db, communityId } = this;
    for (const feed of result.feedReferences) {
      await db
        .updateTable('feeds')
        .set({
          ...(feed.purpose !== null ? { chat_channel_purpose_chat_blocks_references: feed.purpose } : {}),
          ...(feed.topic !== null ? { chat_channel_topic_chat_blocks_references: feed.topic } : {}),
        })
        .where('community_id', '=', communityId)
        .where('id', '=', feed.id)
        .execute();
    }
    if (result.late) await this.deriveAgain(result.late);
    const recount = new Set([...result.recountPosts, ...this.recount, ...this.left]);
    await refreshPostActivity(db, communityId, recount);
    if (result.feedCounts) {
      for (const [feedId, count] of result.feedCounts) {
        await db
          .updateTable('feeds')
          .set({ posts_count: count })
          .where('community_id', '=', communityId)
          .where('id', '=', feedId)
          .execute();
      }
    } else {
      for (const post of result.counts.posts > 0 && this.empty ? await this.feedsOfPosts() : []) this.feeds.add(post);
      await refreshFeedCounts(db, communityId, this.feeds);
    }
    await this.change.refresh({
      profiles: result.ids.profiles,
      feeds: result.ids.feeds,
      tags: result.ids.tags,
      events: result.ids.events,
      // A comment changes its post's comments_count and latest_activity_at; posts rendered as they were written
      // are rendered again only where the store counted (or derived) after them.
      posts: [...recount, ...(result.late?.posts.map(([id]) => id) ?? [])],
    });
    const { counts } = result;
    const summary = {
      records: result.records,
      feeds: counts.feeds,
      profiles: counts.profiles,
      tags: counts.tags,
      calendar_events: counts.calendar_events,
      posts: counts.posts,
      comments: counts.comments,
      badges: counts.badges,
      groups: counts.groups,
    };
    await this.change.audit('import.completed', communityId, summary);
    await this.webhooks.emit(summary);
  }

  private async feedsOfPosts(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('posts')
      .select('feed_id')
      .distinct()
      .where('community_id', '=', this.communityId)
      .execute();
    return rows.map((row) => row.feed_id);
  }

  /**
   * A profile or feed that mentions resolve against came after records derived without it: their derived
   * fields are derived again now that the store holds every one, as a file read whole would have them.
   */
  private async deriveAgain(late: NonNullable<FinishResult['late']>): Promise<void> {
    const { db, communityId } = this;
    const derive = await createDeriver(db, communityId);
    const blocksOf = (message: unknown): unknown[] | null => {
      const parsed =
        typeof message === 'string'
          ? (JSON.parse(message) as { blocks?: unknown[] | null })
          : (message as { blocks?: unknown[] | null } | null);
      return parsed?.blocks ?? null;
    };
    const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
    for (const part of chunk(late.posts, 500)) {
      const masks = new Map(part);
      const rows = await db
        .selectFrom('posts')
        .select(['id', 'chat_message', 'body_prosemirror', 'body_plaintext'])
        .where('community_id', '=', communityId)
        .where('id', 'in', [...masks.keys()])
        .execute();
      for (const row of rows) {
        const mask = masks.get(row.id) ?? 0;
        const blocks = blocksOf(row.chat_message);
        const prosemirror = row.body_prosemirror === null ? null : json(row.body_prosemirror);
        const body = mask & DERIVED.plaintext ? derive.plaintext(blocks, prosemirror) : row.body_plaintext;
        await db
          .updateTable('posts')
          .set({
            ...(mask & DERIVED.plaintext ? { body_plaintext: body } : {}),
            ...(mask & DERIVED.readTime ? { read_time_minutes: derive.readTime(body) } : {}),
            ...(mask & DERIVED.references ? { references: derive.references(blocks, prosemirror) } : {}),
          })
          .where('community_id', '=', communityId)
          .where('id', '=', row.id)
          .execute();
      }
    }
    for (const part of chunk(late.comments, 500)) {
      const masks = new Map(part);
      const rows = await db
        .selectFrom('comments')
        .select(['id', 'chat_message'])
        .where('community_id', '=', communityId)
        .where('id', 'in', [...masks.keys()])
        .execute();
      for (const row of rows) {
        const mask = masks.get(row.id) ?? 0;
        const blocks = blocksOf(row.chat_message);
        await db
          .updateTable('comments')
          .set({
            ...(mask & DERIVED.plaintext ? { body_plaintext: derive.plaintext(blocks, null) } : {}),
            ...(mask & DERIVED.references ? { references: derive.references(blocks, null) } : {}),
          })
          .where('community_id', '=', communityId)
          .where('id', '=', row.id)
          .execute();
      }
    }
    for (const part of chunk(late.events, 500)) {
      const masks = new Map(part);
      const rows = await db
        .selectFrom('calendar_events')
        .select(['id', 'description_chat_blocks', 'recap_chat_blocks'])
        .where('community_id', '=', communityId)
        .where('id', 'in', [...masks.keys()])
        .execute();
      for (const row of rows) {
        const mask = masks.get(row.id) ?? 0;
        const blocks = (value: unknown) => (value === null ? [] : json(value)) as unknown[];
        await db
          .updateTable('calendar_events')
          .set({
            ...(mask & DERIVED.description
              ? { description_chat_blocks_references: derive.references(blocks(row.description_chat_blocks)) }
              : {}),
            ...(mask & DERIVED.recap
              ? { recap_chat_blocks_references: derive.references(blocks(row.recap_chat_blocks)) }
              : {}),
          })
          .where('community_id', '=', communityId)
          .where('id', '=', row.id)
          .execute();
      }
    }
  }
}

/** Whether the community holds no records at all: the import may then count in memory and index in bulk. */
export async function isEmptyCommunity(db: Kysely<Database>, communityId: string): Promise<boolean> {
  for (const table of [
    'feeds',
    'profiles',
    'tags',
    'calendar_events',
    'posts',
    'comments',
    'badges',
    'groups',
  ] as const) {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`1`.as('one'))
      .where('community_id', '=', communityId)
      .limit(1)
      .executeTakeFirst();
    if (row) return false;
  }
  return true;
}
