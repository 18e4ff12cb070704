// The import's few store-specific steps: foreign keys checked at commit, the search index loaded in one pass
// after the rows (bulk import into an empty community) instead of row by row by the triggers, and a vacuum
// with fresh planner statistics after a large import.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { postgresSearchLoad, sqliteSearchLoad } from '../db/migrations/002-search.js';

export interface ImportStore {
  /** Foreign keys between the file's records are checked at commit, so lines may come in any order. */
  deferForeignKeys(trx: Kysely<Database>): Promise<void>;
  /** Stops indexing rows one by one for this transaction; the returned step indexes the community's rows in one pass. */
  deferSearch(trx: Kysely<Database>, communityId: string): Promise<() => Promise<void>>;
  /** After the import committed `records` records: what the store's query planner needs to know of them. */
  afterCommit(db: Kysely<Database>, records: number): Promise<void>;
}

/** Imports at least this large vacuum and analyze what they wrote (PostgreSQL); smaller ones leave it to autovacuum. */
export const ANALYZE_FROM_RECORDS = 10_000;

/** The tables an import writes. */
const IMPORTED_TABLES = [
  'profiles',
  'feeds',
  'tags',
  'calendar_events',
  'event_profiles',
  'event_tags',
  'event_feeds',
  'event_publications',
  'posts',
  'comments',
  'post_search',
  'comment_search',
  'fragments',
] as const;

const SEARCH_SOURCES = ['posts', 'comments'] as const;

/**
 * SQLite: the insert triggers are dropped inside the import's transaction and created again, from their own
 * stored SQL, before it commits. DDL is transactional in SQLite and the transaction holds the write lock, so no
 * other writer ever sees the store without them, and a killed import rolls the drop back with everything else.
 */
const sqliteImport: ImportStore = {
  async deferForeignKeys(trx) {
    await sql`pragma defer_foreign_keys = on`.execute(trx);
  },
  async deferSearch(trx, communityId) {
    const names = SEARCH_SOURCES.map((source) => `${source}_search_insert`);
    const triggers = await sql<{
      name: string;
      sql: string;
    }>`select name, sql from sqlite_master where type = 'trigger' and name in (${sql.join(names)})`.execute(trx);
    for (const trigger of triggers.rows) await sql.raw(`drop trigger ${trigger.name}`).execute(trx);
    await sql`insert into search_communities (community_id) select ${communityId} where not exists (select 1 from search_communities where community_id = ${communityId})`.execute(
      trx,
    );
    return async () => {
      for (const source of SEARCH_SOURCES) {
        for (const statement of sqliteSearchLoad(source))
          await sql.raw(statement.replaceAll('?', `'${communityId.replaceAll("'", "''")}'`)).execute(trx);
      }
      for (const trigger of triggers.rows) await sql.raw(trigger.sql).execute(trx);
    };
  },
  // SQLite plans from its indexes alone (no sqlite_stat1 is kept), and Hearth's queries are written for them.
  async afterCommit() {},
};

/** PostgreSQL: the triggers skip rows while the transaction's `hearth.defer_search` is on (migration 007). */
const postgresImport: ImportStore = {
  async deferForeignKeys(trx) {
    await sql`set constraints all deferred`.execute(trx);
  },
  async deferSearch(trx, communityId) {
    await sql`select set_config('hearth.defer_search', 'on', true)`.execute(trx);
    return async () => {
      await sql`select set_config('hearth.defer_search', 'off', true)`.execute(trx);
      for (const source of SEARCH_SOURCES)
        await sql.raw(postgresSearchLoad(source).replace('$1', `'${communityId.replaceAll("'", "''")}'`)).execute(trx);
    };
  },
  // Without statistics the planner guesses a few hundred posts per community and picks a bitmap scan and a
  // sort of all of them for a first page (2.4 s at 100k posts) over the index walk that reads ten (0.3 ms).
  // Without a vacuum the index-only walk of a deep page visits the table for every entry it skips (the
  // visibility map is unset, and each post has the dead version its counts replaced): 563 ms against <1 ms.
  // Autovacuum would do both later (and is off on some servers): a large import does them at once. VACUUM
  // cannot run in a transaction: this runs on a pooled connection after the commit, with no query deadline
  // (imports run from the command line, whose store has none).
  async afterCommit(db, records) {
    if (records < ANALYZE_FROM_RECORDS) return;
    await sql.raw(`vacuum (analyze) ${IMPORTED_TABLES.join(', ')}`).execute(db);
  },
};

export const importStoreFor = (dialect: StoreDialect): ImportStore =>
  dialect.name === 'postgres' ? postgresImport : sqliteImport;
