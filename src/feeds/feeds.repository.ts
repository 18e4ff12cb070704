// SQL for feeds.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FeedsTable } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';

export type FeedRow = Selectable<FeedsTable>;

export interface FeedFilters {
  isArchived?: boolean;
  isUnlisted?: boolean;
}

export function findFeed(db: Kysely<Database>, communityId: string, id: string): Promise<FeedRow | undefined> {
  return db
    .selectFrom('feeds')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function feedsByIds(db: Kysely<Database>, communityId: string, ids: readonly string[]): Promise<FeedRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return Promise.resolve([]);
  return db.selectFrom('feeds').selectAll().where('community_id', '=', communityId).where('id', 'in', unique).execute();
}

function filtered(db: Kysely<Database>, communityId: string, filters: FeedFilters) {
  let query = db.selectFrom('feeds').where('community_id', '=', communityId);
  if (filters.isArchived !== undefined) query = query.where('is_archived', '=', filters.isArchived);
  if (filters.isUnlisted !== undefined) query = query.where('is_unlisted', '=', filters.isUnlisted);
  return query;
}

export async function countFeeds(db: Kysely<Database>, communityId: string, filters: FeedFilters): Promise<number> {
  const row = await filtered(db, communityId, filters)
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page of feeds by label, then id. Labels compare byte by byte on both stores (PostgreSQL's
 * default collation would follow the server's locale), so pages are the same everywhere.
 */
export function pageFeeds(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  filters: FeedFilters,
  limit: number,
  offset: number,
): Promise<FeedRow[]> {
  return filtered(db, communityId, filters)
    .selectAll()
    .orderBy(sql`label collate ${sql.raw(dialect.bytewiseCollation)}`)
    .orderBy(sql`id collate ${sql.raw(dialect.bytewiseCollation)}`)
    .limit(limit)
    .offset(offset)
    .execute();
}
