// What an import checks and recounts in the store, inside its transaction: links and e-mails the file does not
// resolve itself, comments counts and latest activity, and feed post counts (the writing is write-chunks.ts).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { chunk, existingIds } from '../db/batch.js';
import type { EmailClaim } from './derive-chunks.js';
import { linkKey, noNamedIds, type ImportPlan, type Link, type LinkGroup, type NamedIds } from './plan.js';
import type { ImportProblem } from './problems.js';
import { LinkLines } from './check-link-lines.js';

const singular: Record<Link['table'], string> = {
  profiles: 'profile',
  tags: 'tag',
  feeds: 'feed',
  posts: 'post',
  comments: 'comment',
};

/** What the whole file says that only the store can check: records it names without holding them, and its e-mails. */
export interface PlanIndex {
  /** Records the file names, neither in it nor refused in it: the store must hold them. */
  unresolved: NamedIds;
  /** The lines naming some of them (by `table:id`), asked only for those the store lacks, for the report. */
  linesOf(keys: string[]): Promise<LinkGroup[]>;
  /** Profiles with an e-mail, each at the line of its last record. */
  emails: EmailClaim[];
}

/** The index of a plan read whole (the dry run). */
export function indexOf(plan: ImportPlan): PlanIndex {
  const inFile: Record<Link['table'], Map<string, unknown>> = {
    profiles: plan.profiles,
    tags: plan.tags,
    feeds: plan.feeds,
    posts: plan.posts,
    comments: plan.comments,
  };
  const emails: EmailClaim[] = [];
  for (const { line, row } of plan.profiles.values())
    if (row.email_key) emails.push({ line, id: row.id, email: row.email ?? null, email_key: row.email_key });
  const named = new LinkLines();
  for (const link of plan.links)
    if (!inFile[link.table].has(link.id) && !plan.rejected.has(linkKey(link.table, link.id))) named.add(link);
  const unresolved = noNamedIds();
  for (const { table, id } of named.records()) unresolved[table].push(id);
  return { unresolved, linesOf: async (keys) => named.groupsOf(keys), emails };
}

/** Links to records neither in the file nor in the community (links to refused lines are reported there already). */
async function missingLinks(db: Kysely<Database>, communityId: string, index: PlanIndex): Promise<ImportProblem[]> {
  const missing: string[] = [];
  for (const table of Object.keys(singular) as Link['table'][]) {
    const ids = index.unresolved[table];
    if (ids.length === 0) continue;
    const found = await existingIds(db, table, communityId, ids);
    for (const id of ids) if (!found.has(id)) missing.push(linkKey(table, id));
  }
  if (missing.length === 0) return [];
  return (await index.linesOf(missing)).flatMap((group) =>
    group.lines.map((line, i) => ({
      line,
      reason: `${group.roles[i]}: ${singular[group.table]} '${group.id}' does not exist in the file or the community`,
    })),
  );
}

/** Two profiles of the file with one e-mail: the later line is refused. Returns the problems and each e-mail's owner. */
function fileEmailConflicts(claims: EmailClaim[]): { problems: ImportProblem[]; owner: Map<string, EmailClaim> } {
  const problems: ImportProblem[] = [];
  const owner = new Map<string, EmailClaim>();
  for (const claim of [...claims].sort((a, b) => a.line - b.line)) {
    const previous = owner.get(claim.email_key);
    if (previous !== undefined && previous.id !== claim.id) {
      problems.push({
        line: claim.line,
        reason: `profile: e-mail '${claim.email}' already belongs to profile '${previous.id}'`,
      });
      continue;
    }
    owner.set(claim.email_key, claim);
  }
  return { problems, owner };
}

/** E-mails the store gives to another profile than the file does. */
async function storeEmailConflicts(
  db: Kysely<Database>,
  communityId: string,
  owner: Map<string, EmailClaim>,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  for (const part of chunk([...owner.keys()], 5000)) {
    const rows = await db
      .selectFrom('profiles')
      .select(['id', 'email_key'])
      .where('community_id', '=', communityId)
      .where('email_key', 'in', part)
      .execute();
    for (const row of rows) {
      const claim = row.email_key ? owner.get(row.email_key) : undefined;
      if (row.email_key && claim !== undefined && claim.id !== row.id) {
        problems.push({
          line: claim.line,
          reason: `profile: e-mail '${row.email_key}' already belongs to profile '${row.id}'`,
        });
      }
    }
  }
  return problems;
}

/** One e-mail is one member per community: a file must not give two profiles the same one. */
async function emailConflicts(
  db: Kysely<Database>,
  communityId: string,
  claims: EmailClaim[],
): Promise<ImportProblem[]> {
  const { problems, owner } = fileEmailConflicts(claims);
  return [...problems, ...(await storeEmailConflicts(db, communityId, owner))];
}

/** What the store would refuse in a file (read only): missing links and e-mails taken, by line. */
export async function checkIndex(
  db: Kysely<Database>,
  communityId: string,
  index: PlanIndex,
): Promise<ImportProblem[]> {
  const problems = [
    ...(await missingLinks(db, communityId, index)),
    ...(await emailConflicts(db, communityId, index.emails)),
  ];
  return problems.sort((a, b) => a.line - b.line);
}

/** What the store would refuse in a parsed plan (read only): missing links and e-mails taken, by line. */
export function checkPlan(db: Kysely<Database>, communityId: string, plan: ImportPlan): Promise<ImportProblem[]> {
  return checkIndex(db, communityId, indexOf(plan));
}

/** comments_count and latest_activity_at of posts whose comments (or own record) changed. */
export async function refreshPostActivity(
  db: Kysely<Database>,
  communityId: string,
  postIds: Set<string>,
): Promise<void> {
  // In key order, so that consecutive parts read and rewrite neighbouring pages (see refreshKind).
  for (const part of chunk([...postIds].sort(), 5000)) {
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

export async function refreshFeedCounts(
  db: Kysely<Database>,
  communityId: string,
  feedIds: Set<string>,
): Promise<void> {
  for (const part of chunk([...feedIds], 5000)) {
    await db
      .updateTable('feeds')
      .set({
        posts_count: sql<number>`(select count(*) from posts p where p.community_id = feeds.community_id and p.feed_id = feeds.id)`,
      })
      .where('community_id', '=', communityId)
      .where('id', 'in', part)
      .execute();
  }
}
