// The read model's SQL: one record's fragment, fragments by id, the join that turns a feature's page of ids
// (walked from an index: posts.reads.ts, events.reads.ts) into its fragments, and a community's directory.
import { placeholders, type HotStatements } from '../db/hot-statements.js';
import type { FragmentsTable } from '../db/database.js';

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

/** One record's fragment (zero or one row): synchronously on SQLite. */
export function readOne(hot: HotStatements, communityId: string, kind: FragmentsTable['kind'], id: string) {
  return hot.all<FragmentRead>(ONE, [communityId, kind, id]);
}

/** PostgreSQL: the fragments of a batch of ids in one statement, its text the same for any number of ids. */
export function readBatch(
  hot: HotStatements,
  communityId: string,
  kind: FragmentsTable['kind'],
  ids: readonly string[],
) {
  return hot.all<FragmentRead>(
    'select id, version, refs, body from fragments where community_id = ? and kind = ? and id = any(?)',
    [communityId, kind, ids],
  );
}

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

/**
 * A page of `inner` (which selects `community_id`, `id` and the sort key `k`) joined with its fragments, in page
 * order: the SQL of a feature's page read.
 */
export function pageOfFragments(inner: string, kind: FragmentsTable['kind'], direction: 'asc' | 'desc'): string {
  return (
    `select f.id, f.version, f.refs, f.body from (${inner}) pg ` +
    `join fragments f on f.community_id = pg.community_id and f.kind = '${kind}' and f.id = pg.id ` +
    `order by pg.k ${direction}, pg.id ${direction}`
  );
}
