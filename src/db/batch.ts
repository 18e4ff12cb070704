// Batched inserts, upserts and id look-ups of many rows (the import's, the fragments', the webhooks'), sized to
// stay under both stores' bind-parameter limits.
import { CompiledQuery, SqliteAdapter, sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';
import { copies, copyInto } from './postgres-copy.js';
import { sqliteDialect } from './sqlite-dialect.js';

type Row = Record<string, unknown>;
// Kysely cannot type a table chosen at run time; the rows come from the typed import plan.
type Loose = Kysely<Record<string, Row>>;

const MAX_PARAMETERS = 30_000;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Rows per statement: a power of two up to this many (a run of rows is written as 256 + 64 + 8 + …), so that a
 * table needs at most nine statement texts, each compiled by Kysely once and prepared by the store once, where
 * a text per run length had SQLite parse a statement of thousands of parameters for nearly every chunk.
 */
const MAX_ROWS = 256;

/** Statement texts by dialect (the adapter) and shape: table, columns, conflict handling, rows. */
const texts = new WeakMap<object, Map<string, string>>();

/**
 * Inserts rows that all have the same columns, as statements of fixed shapes bound to the rows' values: Kysely
 * builds each shape's text once (a template row of nulls), then only the values change. Booleans are bound as
 * 1/0, which SQLite needs and PostgreSQL reads as booleans too.
 *
 * On SQLite an upsert is first tried as a plain `INSERT OR FAIL`, and written as the upsert only once a row's key
 * is found taken (then for the rest of the call). An upsert may abort half-way, so SQLite keeps a statement journal
 * of every page it changes that the transaction had changed before: over 64 KiB a statement, a temporary file. At
 * a million posts, whose key indexes take a random page for each row, one import wrote heavily into it
 * (measured: bench/analysis.md, 'Figures behind the code's choices'); an `OR FAIL` insert needs none (a failed
 * one keeps the rows before the failing one, which the upsert then writes again with the same values, and an
 * error rolls the caller's whole transaction back anyway).
 */
async function writeRows(
  db: Kysely<Database>,
  table: keyof Database,
  given: readonly object[],
  conflictKeys: string[] | null,
  conflictSet: Record<string, RawBuilder<unknown>> = {},
): Promise<void> {
  const rows = given as readonly Row[];
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  if (rows.some((row) => Object.keys(row).length !== columns.length))
    throw new Error(`${table}: rows of different columns`);
  if (copies(db)) return writeThroughCopy(db, table, columns, rows, conflictKeys, conflictSet);
  const adapter = db.getExecutor().adapter;
  const sqlite = adapter instanceof SqliteAdapter;
  const byShape = texts.get(adapter) ?? new Map<string, string>();
  texts.set(adapter, byShape);
  const setText = Object.entries(conflictSet)
    .map(([column, value]) => `${column}=${value.compile(db).sql}`)
    .join(',');
  /** The text of a statement of `size` rows: an upsert when `keys` are given, else an insert (`OR FAIL` on SQLite). */
  const textOf = (size: number, keys: string[] | null): string => {
    const shape = `${table}|${columns.join(',')}|${keys?.join(',') ?? ''}|${setText}|${size}`;
    let text = byShape.get(shape);
    if (text === undefined) {
      const template = Object.fromEntries(columns.map((column) => [column, null]));
      const into = (db as unknown as Loose).insertInto(table);
      const insert = (sqlite && !keys ? into.orFail() : into).values(Array.from({ length: size }, () => template));
      text = (
        keys
          ? insert.onConflict((oc) => oc.columns(keys).doUpdateSet((eb) => updateSet(eb, columns, keys, conflictSet)))
          : insert
      ).compile().sql;
      byShape.set(shape, text);
    }
    return text;
  };
  const perStatement = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(Math.max(1, MAX_PARAMETERS / columns.length))));
  let insertFirst = sqlite && conflictKeys !== null;
  let at = 0;
  while (at < rows.length) {
    let size = perStatement;
    while (size > rows.length - at) size /= 2;
    const values: unknown[] = [];
    for (let i = at; i < at + size; i++) {
      const row = rows[i] as Row;
      for (const column of columns) {
        const value = row[column];
        if (value === undefined) throw new Error(`${table}: a row without ${column}`);
        values.push(typeof value === 'boolean' ? Number(value) : value);
      }
    }
    const upsert = () => db.executeQuery(CompiledQuery.raw(textOf(size, conflictKeys), values));
    if (!insertFirst) await upsert();
    else {
      try {
        await db.executeQuery(CompiledQuery.raw(textOf(size, null), values));
      } catch (error) {
        if (!sqliteDialect.isUniqueViolation(error)) throw error;
        insertFirst = false;
        await upsert();
      }
    }
    at += size;
  }
}

/** An upsert's SET: each column not in the key takes the new row's value, or the expression `set` gives it. */
const updateSet = (
  eb: ExpressionBuilder<Record<string, Row>, string>,
  columns: readonly string[],
  keys: readonly string[],
  set: Record<string, RawBuilder<unknown>>,
) => Object.fromEntries(columns.filter((c) => !keys.includes(c)).map((c) => [c, set[c] ?? eb.ref(`excluded.${c}`)]));

/** Each transaction's staging tables, by the table and columns they stage. */
const stages = new WeakMap<object, Map<string, string>>();

/**
 * PostgreSQL in a transaction that asked for COPY (an import): rows stream in with `COPY`, a few hundred KiB a
 * write, where a 256-row INSERT was parsed and planned again for every statement (`pg` sends unnamed ones). An
 * insert goes straight into its table; an upsert into a temporary table of the transaction, emptied after each
 * use, and from there into its table with one `INSERT … SELECT … ON CONFLICT`. A key given twice keeps its last
 * row, as the statements one after another would have (one INSERT may not update a row twice).
 */
async function writeThroughCopy(
  db: Kysely<Database>,
  table: keyof Database,
  columns: readonly string[],
  rows: readonly Row[],
  keys: string[] | null,
  set: Record<string, RawBuilder<unknown>>,
): Promise<void> {
  for (const row of rows)
    for (const column of columns) if (row[column] === undefined) throw new Error(`${table}: a row without ${column}`);
  if (!keys) return copyInto(db, table, columns, rows);
  const shape = `${table}|${columns.join(',')}|${keys.join(',')}`;
  const own = stages.get(db) ?? new Map<string, string>();
  stages.set(db, own);
  let stage = own.get(shape);
  const loose = db as unknown as Loose;
  if (stage === undefined) {
    stage = `hearth_stage_${own.size}`;
    // CREATE TABLE AS takes the columns' types and none of their constraints: a column left to its default stays out.
    await loose.schema
      .createTable(stage)
      .temporary()
      .onCommit('drop')
      .as(loose.selectFrom(table).select(columns).where(sqlFalse))
      .execute();
    own.set(shape, stage);
  }
  await copyInto(db, stage, columns, lastOfEachKey(rows, keys));
  await loose
    .insertInto(table)
    .columns(columns)
    .expression(loose.selectFrom(stage).select(columns))
    .onConflict((oc) => oc.columns(keys).doUpdateSet((eb) => updateSet(eb, columns, keys, set)))
    .execute();
  await sql`truncate ${sql.table(stage)}`.execute(db);
}

const sqlFalse = sql<boolean>`false`;

/** The rows with each key once: the last row given for it. */
function lastOfEachKey(rows: readonly Row[], keys: readonly string[]): readonly Row[] {
  const last = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    let key = '';
    for (const column of keys) key += `${String(row[column])}\u0000`;
    last.set(key, i);
  }
  if (last.size === rows.length) return rows;
  const kept = new Set(last.values());
  return rows.filter((_, i) => kept.has(i));
}

/**
 * Inserts rows, replacing the columns of rows whose `keys` (community_id, id) already exist with the new values,
 * or with the expressions of `set` for the columns it names.
 */
export function upsertRows(
  db: Kysely<Database>,
  table: keyof Database,
  rows: readonly object[],
  keys: string[] = ['community_id', 'id'],
  set: Record<string, RawBuilder<unknown>> = {},
): Promise<void> {
  return writeRows(db, table, rows, keys, set);
}

export function insertRows(db: Kysely<Database>, table: keyof Database, rows: readonly object[]): Promise<void> {
  return writeRows(db, table, rows, null);
}

/** Ids among `ids` that exist in `table` for the community. */
export async function existingIds(
  db: Kysely<Database>,
  table: 'profiles' | 'tags' | 'feeds' | 'calendar_events' | 'posts' | 'comments',
  communityId: string,
  ids: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunk([...new Set(ids)], 5000)) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('community_id', '=', communityId)
      .where('id', 'in', part)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}
