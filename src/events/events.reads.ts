// The events' read SQL, run on the hot statements: a filter's count and page (as fragments), each walking one
// index, and the next instant at which time alone changes a filter's answer.
import type { HotParam, HotStatements } from '../db/hot-statements.js';
import { pageOfFragments, type FragmentRead } from '../fragments/fragment-reads.js';

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
