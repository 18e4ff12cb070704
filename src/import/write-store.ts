// The import's few store-specific steps: its transaction (foreign keys left to the import's own link checks on
// SQLite, checked at commit on PostgreSQL, rows sent by COPY), secondary indexes (into an empty community; on
// PostgreSQL with the foreign keys between those tables) and the search index built in one pass after the rows
// instead of row by row, and a vacuum with fresh planner statistics after a large import.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { clientOf } from '../db/postgres-dialect.js';
import { inTransaction } from '../db/transaction.js';
import type { PostsReadBack } from './derive-chunks.js';
import { writeByCopy } from '../db/postgres-copy.js';
import { deferPostgresIndexes } from './write-postgres-deferred-indexes.js';
import { postgresSearchLoad } from './search-load-postgres.js';
import { journalForImport } from './write-sqlite-journal.js';
import { sqliteSearchLoad, sqliteSearchMark, type SearchMark } from './search-load-sqlite.js';
import { defaultImpactShape } from '../search/search-budget.js';
import { buildPostgresSearchRanks } from '../search/postgres-search-ranks-build.js';
import { buildSearchImpacts } from '../search/sqlite-search-impacts-build.js';

/** A step the import runs once every row is written. */
export type Deferred = () => Promise<void>;

export interface ImportStore {
  /**
   * Runs the import's work in one transaction in which lines may name records in any order: every link is
   * checked by the import itself against the file and the community (check-in-store.ts) before it commits.
   */
  transaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Drops the secondary indexes of tables that hold few rows (on PostgreSQL with the foreign keys between them); the
   * returned step builds them again, each in one pass, once the import's links are checked.
   */
  deferIndexes(trx: Kysely<Database>): Promise<Deferred>;
  /**
   * Stops indexing rows one by one for this transaction where the store can index the import's rows in one pass
   * after them (the returned step): SQLite always, PostgreSQL into an empty community (its pass indexes every row
   * of the community).
   */
  deferSearch(trx: Kysely<Database>, communityId: string, empty: boolean): Promise<Deferred>;
  /**
   * Once every row of a file of `records` records is written, before the import reads them again (links,
   * counters, fragments, the search load): what the store's query planner needs to know of them.
   */
  afterRows(trx: Kysely<Database>, records: number): Promise<void>;
  /**
   * How the store gives a post's JSON columns back once written (its fragment is rendered as if read back, without
   * a read): as written (SQLite's text), or with objects' keys in jsonb's order (PostgreSQL).
   */
  readsBack: PostsReadBack;
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

/** The tables an import writes from the others, once their rows are written. */
const DERIVED_TABLES = ['post_search', 'comment_search', 'fragments'] as const;

/** The tables the import reads again after its rows. */
const SOURCE_TABLES = IMPORTED_TABLES.filter((table) => !(DERIVED_TABLES as readonly string[]).includes(table));

/** Tables whose secondary indexes a bulk import builds after its rows. */
const INDEXED_TABLES = [
  'profiles',
  'feeds',
  'calendar_events',
  'event_profiles',
  'event_feeds',
  'event_publications',
  'posts',
  'comments',
] as const;

/**
 * A table holding more rows than this (other communities') keeps its indexes: building them again over those
 * rows would cost more than a small import saves. Below it, the rebuild costs a few milliseconds.
 */
export const REBUILD_INDEXES_BELOW = 10_000;

/** Whether `table` holds at most REBUILD_INDEXES_BELOW rows (counting no further). */
async function holdsFew(trx: Kysely<Database>, table: string): Promise<boolean> {
  const held = await sql<{ rows: number | string }>`select count(*) as rows from (select 1 from ${sql.table(
    table,
  )} limit ${REBUILD_INDEXES_BELOW + 1}) as held`.execute(trx);
  return Number(held.rows[0]?.rows ?? 0) <= REBUILD_INDEXES_BELOW;
}

/**
 * SQLite: the insert triggers are dropped inside the import's transaction and created again, from their own
 * stored SQL, before it commits. DDL is transactional in SQLite and the transaction holds the write lock, so no
 * other writer ever sees the store without them, and a killed import rolls the drop back with everything else.
 */
const sqliteImport: ImportStore = {
  // JSON is stored as the text given, timestamps as their stored strings, numbers as numbers.
  readsBack: 'as-written',
  // Foreign keys off for the import's connection (the pragma does nothing inside a transaction, so it is set
  // before BEGIN, on the one connection Kysely holds for the import). They would look every row's parents up
  // again (a third of the writing time), and, deferred, make every parent row written while a violation is
  // outstanding (a comment before its post) scan the child table for its rows, without the index dropped below.
  // A new store is written under a rollback journal (write-sqlite-journal.ts).
  async transaction(db, work) {
    return db.connection().execute(async (connection) => {
      await sql`pragma foreign_keys = off`.execute(connection);
      const restoreJournal = await journalForImport(connection);
      try {
        return await inTransaction(connection, work);
      } finally {
        await restoreJournal();
        await sql`pragma foreign_keys = on`.execute(connection);
      }
    });
  },
  // Rows first, then each index sorted in one pass: denser and faster than one B-tree insert per row per index,
  // which at a million posts means a random page for each. Unique indexes stay: they are constraints.
  async deferIndexes(trx) {
    const indexes = await sql<{ name: string; sql: string; tbl_name: string }>`
      select name, sql, tbl_name from sqlite_master
      where type = 'index' and sql is not null and lower(sql) not like 'create unique%'
        and tbl_name in (${sql.join(INDEXED_TABLES)})`.execute(trx);
    const dropped: string[] = [];
    for (const table of INDEXED_TABLES) {
      const own = indexes.rows.filter((index) => index.tbl_name === table);
      if (own.length === 0 || !(await holdsFew(trx, table))) continue;
      for (const index of own) {
        await sql`drop index ${sql.id(index.name)}`.execute(trx);
        dropped.push(index.sql);
      }
    }
    return async () => {
      for (const statement of dropped) await sql.raw(statement).execute(trx);
    };
  },
  async deferSearch(trx, communityId, empty) {
    const names = SEARCH_SOURCES.map((source) => `${source}_search_insert`);
    const triggers = await sql<{
      name: string;
      sql: string;
    }>`select name, sql from sqlite_master where type = 'trigger' and name in (${sql.join(names)})`.execute(trx);
    for (const trigger of triggers.rows) await sql.raw(`drop trigger ${trigger.name}`).execute(trx);
    await sql`insert into search_communities (community_id) select ${communityId} where not exists (select 1 from search_communities where community_id = ${communityId})`.execute(
      trx,
    );
    // Rows the import adds come after these (an existing row it rewrites keeps its document, updated by the
    // update trigger, which stays).
    const marks = new Map<string, SearchMark>();
    for (const source of SEARCH_SOURCES) {
      const { rows } = await trx.executeQuery<SearchMark>(CompiledQuery.raw(sqliteSearchMark(source), [communityId]));
      if (rows[0]) marks.set(source, rows[0]);
    }
    return async () => {
      for (const source of SEARCH_SOURCES) {
        const mark = marks.get(source);
        if (!mark) continue;
        for (const statement of sqliteSearchLoad(source, empty, mark, communityId))
          await trx.executeQuery(CompiledQuery.raw(statement.sql, statement.parameters));
      }
      // Into an empty community, its frequent words' impact postings in one pass over the index just loaded; into
      // one that has them, migration 022's trigger kept them as the documents went in.
      if (empty) await buildSearchImpacts(trx, communityId, defaultImpactShape);
      for (const trigger of triggers.rows) await sql.raw(trigger.sql).execute(trx);
    };
  },
  // SQLite plans from its indexes alone (no sqlite_stat1 is kept), and Hearth's queries are written for them.
  async afterRows() {},
  async afterCommit() {},
};

/** PostgreSQL: the triggers skip rows while the transaction's `hearth.defer_search` is on (migration 007). */
const postgresImport: ImportStore = {
  // jsonb orders an object's keys its own way; timestamps come back in the stored form (postgres-dialect.ts).
  readsBack: 'jsonb-order',
  async transaction(db, work) {
    return inTransaction(db, async (trx) => {
      await sql`set constraints all deferred`.execute(trx);
      // Values compressed in a staging table keep its compression in the table they move to (migration 009).
      await sql
        .raw(
          `do $$ begin perform set_config('default_toast_compression', 'lz4', true); exception when invalid_parameter_value then null; end $$`,
        )
        .execute(trx);
      // Rows go in through COPY on the transaction's own connection (db/batch.ts), the server writing one
      // part while the next is prepared: every COPY is written before the commit, whose failure fails the import.
      const client = await clientOf(db, trx);
      if (!client) return work(trx);
      const copying = writeByCopy(trx, client);
      try {
        const result = await work(trx);
        await copying.written();
        return result;
      } catch (error) {
        // A statement refused because a COPY before it failed (25P02): the COPY's failure is the import's.
        throw (error as { code?: unknown }).code === '25P02' ? (copying.failure ?? error) : error;
      } finally {
        await copying.end();
      }
    });
  },
  // As on SQLite, with the tables' exclusive locks held until the import commits (write-postgres-deferred-indexes.ts).
  deferIndexes: (trx) => deferPostgresIndexes(trx, SOURCE_TABLES, (table) => holdsFew(trx, table)),
  // A table that was empty when the transaction began has no statistics: the planner took the primary key for a
  // walk of the whole community and filtered it by id, for each read by id after the rows (when posts were read
  // back for their fragments; measured: bench/analysis.md, 'Figures behind the code's choices'). ANALYZE runs in a
  // transaction and sees its rows.
  async afterRows(trx, records) {
    if (records < ANALYZE_FROM_RECORDS) return;
    await sql.raw(`analyze ${SOURCE_TABLES.join(', ')}`).execute(trx);
  },
  async deferSearch(trx, communityId, empty) {
    if (!empty) return async () => {};
    await sql`select set_config('hearth.defer_search', 'on', true)`.execute(trx);
    // A new store's GIN indexes and keys are built once over the loaded documents rather than grown by each of them
    // (the load inserts: an empty community's rows have no documents); the kept ranks' key once over their rows.
    const buildIndexes = await deferPostgresIndexes(
      trx,
      ['post_search', 'comment_search', 'post_search_ranks'],
      (table) => holdsFew(trx, table),
      true,
    );
    return async () => {
      // Loaded while search is still deferred, so that the impact postings' trigger (migration 032) skips each
      // document: they are built in one pass over the documents (which reads no index), then the indexes.
      for (const source of SEARCH_SOURCES)
        for (const statement of postgresSearchLoad(source, communityId)) await sql.raw(statement).execute(trx);
      await buildPostgresSearchRanks(trx, communityId);
      await buildIndexes();
      await sql`select set_config('hearth.defer_search', 'off', true)`.execute(trx);
    };
  },
  // Without statistics the planner guesses a few hundred posts per community and picks a bitmap scan and a
  // sort of all of them for a first page over the index walk that reads ten. Without a vacuum the index-only walk
  // of a deep page visits the table for every entry it skips (the visibility map is unset, and each post has the
  // dead version its counts replaced). Both measured: bench/analysis.md, 'Figures behind the code's choices'.
  // Autovacuum would do both later (and is off on some servers): a large import does them at once. VACUUM
  // cannot run in a transaction: this runs on a pooled connection after the commit, with no query deadline
  // (imports run from the command line, whose store has none). The source tables were analyzed inside the
  // transaction (afterRows), with every row written; only the tables written after that are analyzed here.
  async afterCommit(db, records) {
    if (records < ANALYZE_FROM_RECORDS) return;
    await sql.raw(`vacuum ${SOURCE_TABLES.join(', ')}`).execute(db);
    await sql.raw(`vacuum (analyze) ${DERIVED_TABLES.join(', ')}`).execute(db);
  },
};

export const importStoreFor = (dialect: StoreDialect): ImportStore =>
  dialect.name === 'postgres' ? postgresImport : sqliteImport;
