// PostgreSQL: the secondary indexes and foreign keys of tables an import fills from (nearly) empty, dropped in its
// transaction and made again from their own definitions once its rows are written: each index built in one sorted
// pass, each foreign key checked by one join, instead of one index entry and one look-up per row.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** How long an import waits for another session's lock on a table before it keeps that table as it is. */
const LOCK_WAIT = '2s';

/** Memory each index build may sort in (the server's default, 64 MB, spills a million posts' index to disk). */
const BUILD_MEMORY = '256MB';

/** An index or constraint of a table, with the statement that makes it again. */
interface Definition {
  table: string;
  name: string;
  definition: string;
}

/** The non-unique indexes of these tables (unique ones are constraints and stay), with their `create index`. */
async function secondaryIndexes(trx: Kysely<Database>, tables: readonly string[]): Promise<Definition[]> {
  const { rows } = await sql<Definition>`
    select t.relname as "table", i.relname as name, pg_get_indexdef(x.indexrelid) as definition
    from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
    where t.relnamespace = current_schema()::regnamespace and not x.indisunique
      and t.relname in (${sql.join(tables)})
    order by t.relname, i.relname`.execute(trx);
  return rows;
}

/**
 * Constraints of these tables, with what `add constraint` needs: the foreign keys between them (both ends among
 * them), or their primary keys that no foreign key names.
 */
async function constraints(
  trx: Kysely<Database>,
  tables: readonly string[],
  kind: 'foreign' | 'primary',
): Promise<Definition[]> {
  const which =
    kind === 'foreign'
      ? sql`c.contype = 'f' and exists (select 1 from pg_class r where r.oid = c.confrelid and r.relname in (${sql.join(tables)}))`
      : sql`c.contype = 'p' and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)`;
  const { rows } = await sql<Definition>`
    select t.relname as "table", c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
      join pg_class t on t.oid = c.conrelid
    where ${which} and t.relnamespace = current_schema()::regnamespace
      and t.relname in (${sql.join(tables)})
    order by t.relname, c.conname`.execute(trx);
  return rows;
}

/** Lock not had in time (55P03), or had only by deadlocking another session that holds it (40P01). */
const lockRefused = new Set(['55P03', '40P01']);

/**
 * Takes the table's exclusive lock for the rest of the transaction (as dropping an index would), or gives up
 * after the lock_timeout in force: a session reading the table meanwhile keeps it, rather than the import waiting
 * for it while every later reader queues behind the import.
 */
async function lockedQuickly(trx: Kysely<Database>, table: string): Promise<boolean> {
  await sql`savepoint hearth_table_lock`.execute(trx);
  try {
    await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(trx);
    await sql`release savepoint hearth_table_lock`.execute(trx);
    return true;
  } catch (error) {
    if (!lockRefused.has(String((error as { code?: unknown }).code))) throw error;
    await sql`rollback to savepoint hearth_table_lock`.execute(trx);
    return false;
  }
}

/** Runs `work` with a transaction-local setting, then gives it back its value. */
async function withSetting<T>(trx: Kysely<Database>, name: string, value: string, work: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ held: string }>`select current_setting(${name}) as held`.execute(trx);
  await sql`select set_config(${name}, ${value}, true)`.execute(trx);
  const result = await work();
  await sql`select set_config(${name}, ${rows[0]?.held ?? ''}, true)`.execute(trx);
  return result;
}

/**
 * Of `tables`, those for which `few(table)` holds (they hold few rows, whose indexes are cheap to build again) and
 * whose lock is had at once lose their secondary indexes, and the foreign keys between them; the returned step
 * makes them again. The drop is transactional: an import rolled back or killed keeps every one. Until it commits,
 * other sessions wait for these tables (nearly always a first import into a new store, which nobody reads yet).
 */
export async function deferPostgresIndexes(
  trx: Kysely<Database>,
  tables: readonly string[],
  few: (table: string) => Promise<boolean>,
  /** Primary keys too (tables whose rows the caller writes with plain inserts, and that no foreign key names). */
  withPrimaryKeys = false,
): Promise<() => Promise<void>> {
  const locked: string[] = [];
  await withSetting(trx, 'lock_timeout', LOCK_WAIT, async () => {
    for (const table of tables) if ((await few(table)) && (await lockedQuickly(trx, table))) locked.push(table);
  });
  if (locked.length === 0) return async () => {};
  const keys = [
    ...(withPrimaryKeys ? await constraints(trx, locked, 'primary') : []),
    ...(await constraints(trx, locked, 'foreign')),
  ];
  const indexes = await secondaryIndexes(trx, locked);
  for (const key of keys)
    await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}`.execute(trx);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return async () => {
    // A table with foreign-key checks still pending cannot be indexed: they are made now, as at commit.
    await sql`set constraints all immediate`.execute(trx);
    await sql`set constraints all deferred`.execute(trx);
    await withSetting(trx, 'maintenance_work_mem', BUILD_MEMORY, async () => {
      for (const index of indexes) await sql.raw(index.definition).execute(trx);
      for (const key of keys)
        await sql`alter table ${sql.table(key.table)} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(
          trx,
        );
    });
  };
}
