// The read path's SQL: one record's fragment, the fragments of one page of posts or events (the page's ids
// walked from an index, then only their fragments read), counts from indexes, and a community's feed directory.
import type { HotParam, HotStatements } from '../db/hot-statements.js';
import type { FragmentsTable } from '../db/database.js';
import type { PostSort } from '../posts/post-sorts.js';

export interface FragmentRead {
  id: string;
  version: number | string;
  refs: string;
  body: Buffer;
}

export interface FeedListing {
  id: string;
  is_archived: number | boolean;
  is_unlisted: number | boolean;
  posts_count: number | string;
}

const ONE = 'select id, version, refs, body from fragments where community_id = ? and kind = ? and id = ?';

export async function readFragment(
  hot: HotStatements,
  communityId: string,
  kind: FragmentsTable['kind'],
  id: string,
): Promise<FragmentRead | undefined> {
  return (await hot.all<FragmentRead>(ONE, [communityId, kind, id]))[0];
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Fragments of one kind by id, in no particular order (embedded profiles, feeds and tags). */
export function readFragments(
  hot: HotStatements,
  communityId: string,
  kind: FragmentsTable['kind'],
  ids: readonly string[],
) {
  const sql = `select id, version, refs, body from fragments where community_id = ? and kind = ? and id in (${placeholders(ids.length)})`;
  return hot.all<FragmentRead>(sql, [communityId, kind, ...ids]);
}

/** What search highlights of posts: their title and plain text, by id, in no particular order. */
export interface PostText {
  id: string;
  title: string | null;
  body_plaintext: string | null;
}

export function readPostTexts(hot: HotStatements, communityId: string, ids: readonly string[]) {
  const sql = `select id, title, body_plaintext from posts where community_id = ? and id in (${placeholders(ids.length)})`;
  return hot.all<PostText>(sql, [communityId, ...ids]);
}

export function readFeedListings(hot: HotStatements, communityId: string) {
  return hot.all<FeedListing>('select id, is_archived, is_unlisted, posts_count from feeds where community_id = ?', [
    communityId,
  ]);
}

export async function readMaxEventSpan(hot: HotStatements, communityId: string): Promise<number> {
  const rows = await hot.all<{ span: number | string }>(
    'select max_event_span_ms as span from communities where id = ?',
    [communityId],
  );
  return Number(rows[0]?.span ?? 0);
}

/** A page of `inner` (which selects `id` and the sort key `k`) joined with its fragments, in page order. */
function pageOfFragments(inner: string, kind: FragmentsTable['kind'], direction: 'asc' | 'desc'): string {
  return (
    `select f.id, f.version, f.refs, f.body from (${inner}) pg ` +
    `join fragments f on f.community_id = pg.community_id and f.kind = '${kind}' and f.id = pg.id ` +
    `order by pg.k ${direction}, pg.id ${direction}`
  );
}

const postOrders: Record<PostSort, { column: string; direction: 'asc' | 'desc' }> = {
  newest: { column: 'created_at', direction: 'desc' },
  oldest: { column: 'created_at', direction: 'asc' },
  'most-recent-activity': { column: 'latest_activity_at', direction: 'desc' },
};

/**
 * One page of posts of `feedIds` (null: every feed of the community). The inner select names only indexed
 * columns, so a deep OFFSET skips index entries, never rows (see posts.repository.ts for the index choice).
 */
export function readPostPage(
  hot: HotStatements,
  communityId: string,
  feedIds: readonly string[] | null,
  sort: PostSort,
  limit: number,
  offset: number,
) {
  const { column, direction } = postOrders[sort];
  const feedFilter = feedIds ? ` and feed_id in (${placeholders(feedIds.length)})` : '';
  const inner =
    `select community_id, id, ${column} as k from posts where community_id = ?${feedFilter} ` +
    `order by ${column} ${direction}, id ${direction} limit ? offset ?`;
  return hot.all<FragmentRead>(pageOfFragments(inner, 'post', direction), [
    communityId,
    ...(feedIds ?? []),
    limit,
    offset,
  ]);
}

export interface EventFilter {
  status: string;
  publishToSite?: boolean;
  isUnlisted?: boolean;
  /** Events published to this feed: the walk is over event_feeds, the same columns one feed at a time. */
  feedId?: string;
  /** Stored timestamps bounding start_at below (a seek bound) and above, and occupied_until below. */
  startFrom?: string;
  startBefore?: string;
  endsAfter?: string;
  /** Date filter: events overlapping [from, to): start before `to`, and ending after or starting at `from`. */
  overlapFrom?: string;
}

/** The FROM and WHERE of an event filter, with its parameters: every column read comes from one index. */
function eventWhere(
  communityId: string,
  f: EventFilter,
): { from: string; idColumn: string; where: string; params: HotParam[] } {
  const byFeed = f.feedId !== undefined;
  const parts = ['community_id = ?'];
  const params: HotParam[] = [communityId];
  if (byFeed) {
    parts.push('feed_id = ?');
    params.push(f.feedId ?? null);
  }
  parts.push('status = ?');
  params.push(f.status);
  const flag = (column: string, value: boolean | undefined) => {
    if (value === undefined) return;
    parts.push(`${column} = ?`);
    params.push(value ? 1 : 0);
  };
  flag('publish_to_site', f.publishToSite);
  flag('is_unlisted', f.isUnlisted);
  const bound = (sql: string, value: string | undefined) => {
    if (value === undefined) return;
    parts.push(sql);
    params.push(value);
  };
  bound('start_at >= ?', f.startFrom);
  bound('start_at < ?', f.startBefore);
  bound('occupied_until > ?', f.endsAfter);
  if (f.overlapFrom !== undefined) {
    parts.push('(occupied_until > ? or start_at >= ?)');
    params.push(f.overlapFrom, f.overlapFrom);
  }
  return {
    from: byFeed ? 'event_feeds' : 'calendar_events',
    idColumn: byFeed ? 'event_id' : 'id',
    where: parts.join(' and '),
    params,
  };
}

export async function countEventsMatching(
  hot: HotStatements,
  communityId: string,
  filter: EventFilter,
): Promise<number> {
  const { from, where, params } = eventWhere(communityId, filter);
  const rows = await hot.all<{ n: number | string }>(`select count(*) as n from ${from} where ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

export function readEventPage(
  hot: HotStatements,
  communityId: string,
  filter: EventFilter,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
) {
  const { from, idColumn, where, params } = eventWhere(communityId, filter);
  const inner =
    `select community_id, ${idColumn} as id, start_at as k from ${from} where ${where} ` +
    `order by start_at ${direction}, ${idColumn} ${direction} limit ? offset ?`;
  return hot.all<FragmentRead>(pageOfFragments(inner, 'event', direction), [...params, limit, offset]);
}

/**
 * The next instant at which time alone changes which events of a status are upcoming (one ends) or past
 * (one starts): a cached answer for a time filter is good until then. One index seek.
 */
export async function nextEventBoundary(
  hot: HotStatements,
  communityId: string,
  status: string,
  filter: 'upcoming' | 'past',
  now: string,
): Promise<string | null> {
  const sql =
    filter === 'upcoming'
      ? 'select min(occupied_until) as t from calendar_events where community_id = ? and status = ? and occupied_until > ?'
      : 'select min(start_at) as t from calendar_events where community_id = ? and status = ? and start_at >= ?';
  const rows = await hot.all<{ t: string | null }>(sql, [communityId, status, now]);
  return rows[0]?.t ?? null;
}
