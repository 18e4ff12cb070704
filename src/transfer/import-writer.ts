// Writes a parsed import plan into one community inside the caller's transaction: links checked first,
// then rows upserted in dependency order, then the derived fields, counters and fragments brought up to date.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { refreshFragments } from '../fragments/fragment-refresh.js';
import { chunk, existingIds, insertRows, upsertRows } from './batch.js';
import { importWebhooks } from '../webhooks/import-webhooks.js';
import { createDeriver, type Deriver } from './derive.js';
import { ImportError, maxProblems, type ImportPlan, type ImportProblem, type Link } from './import-parse.js';

const singular: Record<Link['table'], string> = {
  profiles: 'profile',
  tags: 'tag',
  feeds: 'feed',
  posts: 'post',
  comments: 'comment',
};

/** Links to records neither in the file nor in the community (links to refused lines are reported there already). */
async function missingLinks(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<ImportProblem[]> {
  const inFile: Record<Link['table'], Map<string, unknown>> = {
    profiles: plan.profiles,
    tags: plan.tags,
    feeds: plan.feeds,
    posts: plan.posts,
    comments: plan.comments,
  };
  const unresolved = plan.links.filter((link) => !inFile[link.table].has(link.id) && !plan.rejected.has(`${link.table}:${link.id}`));
  const missing: Link[] = [];
  for (const table of Object.keys(inFile) as Link['table'][]) {
    const links = unresolved.filter((l) => l.table === table);
    if (links.length === 0) continue;
    const found = await existingIds(db, table, communityId, links.map((l) => l.id));
    missing.push(...links.filter((l) => !found.has(l.id)));
  }
  return missing.map((link) => ({ line: link.line, reason: `${link.role}: ${singular[link.table]} '${link.id}' does not exist in the file or the community` }));
}

/** One e-mail is one member per community: a file must not give two profiles the same one. */
async function emailConflicts(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const owner = new Map<string, string>();
  const lines = new Map<string, number>();
  for (const { line, row } of [...plan.profiles.values()].sort((a, b) => a.line - b.line)) {
    if (!row.email_key) continue;
    const previous = owner.get(row.email_key);
    if (previous !== undefined && previous !== row.id) {
      problems.push({ line, reason: `profile: e-mail '${row.email}' already belongs to profile '${previous}'` });
      continue;
    }
    owner.set(row.email_key, row.id);
    lines.set(row.email_key, line);
  }
  for (const part of chunk([...owner.keys()], 5000)) {
    const rows = await db.selectFrom('profiles').select(['id', 'email_key']).where('community_id', '=', communityId).where('email_key', 'in', part).execute();
    for (const row of rows) {
      const id = row.email_key ? owner.get(row.email_key) : undefined;
      if (row.email_key && id !== undefined && id !== row.id) {
        problems.push({ line: lines.get(row.email_key) ?? 0, reason: `profile: e-mail '${row.email_key}' already belongs to profile '${row.id}'` });
      }
    }
  }
  return problems;
}

/** What the store would refuse in a parsed plan (read only): missing links and e-mails taken, by line. */
export async function checkPlan(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<ImportProblem[]> {
  const problems = [...(await missingLinks(db, communityId, plan)), ...(await emailConflicts(db, communityId, plan))];
  return problems.sort((a, b) => a.line - b.line);
}

const withCommunity = <T extends { community_id: string }>(communityId: string, rows: Iterable<{ row: T }>): T[] =>
  [...rows].map(({ row }) => ({ ...row, community_id: communityId }));

/** A feed's channel purpose and topic may mention its own channel: their references are derived once every feed is in. */
async function deriveFeedReferences(db: Kysely<Database>, communityId: string, plan: ImportPlan, derive: Deriver): Promise<void> {
  for (const feed of plan.feeds.values()) {
    if (!feed.derivePurpose && !feed.deriveTopic) continue;
    await db
      .updateTable('feeds')
      .set({
        ...(feed.derivePurpose ? { chat_channel_purpose_chat_blocks_references: derive.references(feed.derivePurpose) } : {}),
        ...(feed.deriveTopic ? { chat_channel_topic_chat_blocks_references: derive.references(feed.deriveTopic) } : {}),
      })
      .where('community_id', '=', communityId)
      .where('id', '=', feed.row.id)
      .execute();
  }
}

async function writeEvents(db: Kysely<Database>, communityId: string, plan: ImportPlan, derive: Deriver): Promise<void> {
  const events = [...plan.events.values()];
  if (events.length === 0) return;
  const rows = events.map((event) => ({
    ...event.row,
    community_id: communityId,
    ...(event.deriveDescription ? { description_chat_blocks_references: derive.references(event.deriveDescription) } : {}),
    ...(event.deriveRecap ? { recap_chat_blocks_references: derive.references(event.deriveRecap) } : {}),
  }));
  await upsertRows(db, 'calendar_events', rows);
  for (const part of chunk(events.map((e) => e.row.id), 5000)) {
    for (const table of ['event_profiles', 'event_tags', 'event_publications'] as const) {
      await db.deleteFrom(table).where('community_id', '=', communityId).where('event_id', 'in', part).execute();
    }
  }
  const people = events.flatMap((e) => [
    ...e.hosts.map((profile_id, position) => ({ community_id: communityId, event_id: e.row.id, role: 'host', position, profile_id })),
    ...e.speakers.map((profile_id, position) => ({ community_id: communityId, event_id: e.row.id, role: 'speaker', position, profile_id })),
  ]);
  const tags = events.flatMap((e) => e.tags.map((tag_id, position) => ({ community_id: communityId, event_id: e.row.id, position, tag_id })));
  const publications = events.flatMap((e) => e.publications.map((p, position) => ({ community_id: communityId, event_id: e.row.id, position, ...p })));
  await insertRows(db, 'event_profiles', people);
  await insertRows(db, 'event_tags', tags);
  await insertRows(db, 'event_publications', publications);
}

async function writePosts(db: Kysely<Database>, communityId: string, plan: ImportPlan, derive: Deriver): Promise<Set<string>> {
  const posts = [...plan.posts.values()];
  const feeds = new Set(posts.map((p) => p.row.feed_id));
  // A post moved to another feed changes the count of the feed it left too.
  for (const part of chunk(posts.map((p) => p.row.id), 5000)) {
    const previous = await db.selectFrom('posts').select('feed_id').where('community_id', '=', communityId).where('id', 'in', part).execute();
    for (const row of previous) feeds.add(row.feed_id);
  }
  await upsertRows(
    db,
    'posts',
    posts.map((post) => {
      const body = post.body_plaintext ?? derive.plaintext(post.blocks, post.prosemirror);
      return {
        ...post.row,
        community_id: communityId,
        body_plaintext: body,
        read_time_minutes: post.read_time_minutes ?? derive.readTime(body),
        references: post.references ?? derive.references(post.blocks, post.prosemirror),
      };
    }),
  );
  return feeds;
}

async function writeComments(db: Kysely<Database>, communityId: string, plan: ImportPlan, derive: Deriver): Promise<void> {
  await upsertRows(
    db,
    'comments',
    [...plan.comments.values()].map((comment) => ({
      ...comment.row,
      community_id: communityId,
      body_plaintext: comment.body_plaintext ?? derive.plaintext(comment.blocks, null),
      references: comment.references ?? derive.references(comment.blocks, null),
    })),
  );
}

/** comments_count and latest_activity_at of posts whose comments (or own record) changed. */
async function refreshPostActivity(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<void> {
  const postIds = new Set([...plan.comments.values()].map((c) => c.row.post_id));
  for (const post of plan.posts.values()) if (!post.commentsCountGiven) postIds.add(post.row.id);
  for (const part of chunk([...postIds], 5000)) {
    await db
      .updateTable('posts')
      .set({
        comments_count: sql<number>`(select count(*) from comments c where c.community_id = posts.community_id and c.post_id = posts.id)`,
        latest_activity_at: sql<string>`coalesce((select case when max(c.created_at) > posts.latest_activity_at then max(c.created_at) else posts.latest_activity_at end from comments c where c.community_id = posts.community_id and c.post_id = posts.id), posts.latest_activity_at)`,
      })
      .where('community_id', '=', communityId)
      .where('id', 'in', part)
      .execute();
  }
}

async function refreshFeedCounts(db: Kysely<Database>, communityId: string, feedIds: Set<string>): Promise<void> {
  for (const part of chunk([...feedIds], 5000)) {
    await db
      .updateTable('feeds')
      .set({ posts_count: sql<number>`(select count(*) from posts p where p.community_id = feeds.community_id and p.feed_id = feeds.id)` })
      .where('community_id', '=', communityId)
      .where('id', 'in', part)
      .execute();
  }
}

export async function writePlan(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<void> {
  const problems = await checkPlan(db, communityId, plan);
  if (problems.length > 0) throw new ImportError(problems.slice(0, maxProblems), '', problems.length > maxProblems);
  const webhooks = await importWebhooks(db, communityId, plan);
  await upsertRows(db, 'feeds', withCommunity(communityId, plan.feeds.values()));
  await upsertRows(db, 'profiles', withCommunity(communityId, plan.profiles.values()));
  await upsertRows(db, 'tags', withCommunity(communityId, plan.tags.values()));
  const derive = await createDeriver(db, communityId);
  await deriveFeedReferences(db, communityId, plan, derive);
  await writeEvents(db, communityId, plan, derive);
  const feeds = await writePosts(db, communityId, plan, derive);
  await writeComments(db, communityId, plan, derive);
  await refreshPostActivity(db, communityId, plan);
  await refreshFeedCounts(db, communityId, feeds);
  await refreshFragments(db, communityId, {
    profiles: plan.profiles.keys(),
    feeds: plan.feeds.keys(),
    tags: plan.tags.keys(),
    events: plan.events.keys(),
    // A comment changes its post's comments_count and latest_activity_at.
    posts: [...plan.posts.keys(), ...[...plan.comments.values()].map((c) => c.row.post_id)],
  });
  await webhooks.emit();
}
