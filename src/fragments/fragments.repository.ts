// SQL that writes fragments, the community's version and the per-feed event index; the read statements live in
// fragment-reads.ts, the features' page reads in posts.reads.ts and events.reads.ts.
import { sql, type Kysely } from 'kysely';
import type { Database, FragmentsTable } from '../db/database.js';
import { chunk, insertRows, upsertRows } from '../db/batch.js';

export type FragmentRow = FragmentsTable;

/**
 * Takes the community's next version for the change being written. Versions are counted per community, so that
 * nothing in an ETag moves with another community's writes. The community's row lock orders its concurrent
 * writers (PostgreSQL) and leaves other communities' writers alone.
 */
export async function nextCommunityVersion(db: Kysely<Database>, communityId: string): Promise<number> {
  const row = await db
    .updateTable('communities')
    .set({ fragment_version: sql<number>`fragment_version + 1` })
    .where('id', '=', communityId)
    .returning('fragment_version')
    .executeTakeFirstOrThrow();
  return Number(row.fragment_version);
}

/** Inserts fragments of records that have none yet (an import's new records). */
export function insertFragments(db: Kysely<Database>, rows: readonly FragmentRow[]): Promise<void> {
  return insertRows(db, 'fragments', rows);
}

/**
 * Upserts fragments. A fragment whose bytes and refs are unchanged keeps its version, so an ETag changes
 * exactly when the answer does; the store compares, so nothing is read back here.
 */
export async function writeFragments(db: Kysely<Database>, rows: readonly FragmentRow[]): Promise<void> {
  await upsertRows(db, 'fragments', rows, ['community_id', 'kind', 'id'], {
    version: sql`case when fragments.body = excluded.body and fragments.refs = excluded.refs then fragments.version else excluded.version end`,
  });
}

export async function deleteFragments(
  db: Kysely<Database>,
  communityId: string,
  kind: FragmentsTable['kind'],
  ids: readonly string[],
): Promise<void> {
  for (const part of chunk([...ids], 5000)) {
    await db
      .deleteFrom('fragments')
      .where('community_id', '=', communityId)
      .where('kind', '=', kind)
      .where('id', 'in', part)
      .execute();
  }
}

/** Rewrites the per-feed index rows of these events from their publications and filtered columns. */
export async function refreshEventFeeds(
  db: Kysely<Database>,
  communityId: string,
  eventIds: readonly string[],
): Promise<void> {
  for (const part of chunk([...eventIds], 5000)) {
    await db.deleteFrom('event_feeds').where('community_id', '=', communityId).where('event_id', 'in', part).execute();
    await db
      .insertInto('event_feeds')
      .columns([
        'community_id',
        'feed_id',
        'event_id',
        'status',
        'start_at',
        'occupied_until',
        'publish_to_site',
        'is_unlisted',
      ])
      .expression((eb) =>
        eb
          .selectFrom('event_publications as p')
          .innerJoin('calendar_events as e', (join) =>
            join.onRef('e.community_id', '=', 'p.community_id').onRef('e.id', '=', 'p.event_id'),
          )
          .select([
            'p.community_id',
            'p.feed_id',
            'p.event_id',
            'e.status',
            'e.start_at',
            'e.occupied_until',
            'e.publish_to_site',
            'e.is_unlisted',
          ])
          .distinct()
          .where('p.community_id', '=', communityId)
          .where('p.event_id', 'in', part)
          .where('p.feed_id', 'is not', null),
      )
      .execute();
  }
}

/** Raises the community's longest event span to `spanMs` when it is longer. */
export async function raiseEventSpan(db: Kysely<Database>, communityId: string, spanMs: number): Promise<void> {
  await db
    .updateTable('communities')
    .set({ max_event_span_ms: spanMs })
    .where('id', '=', communityId)
    .where('max_event_span_ms', '<', spanMs)
    .execute();
}
