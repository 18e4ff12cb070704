// Chunked upserts and deletes for the import, sized to stay under both stores' bind-parameter limits.
import { CompiledQuery, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { sqliteDialect } from '../db/sqlite-dialect.js';

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
 * a million posts, whose key indexes take a random page for each row, that was 40 GB written into it during one
 * import; an `OR FAIL` insert needs none (a failed one keeps the rows before the failing one, which the upsert
 * then writes again with the same values, and an error rolls the caller's whole transaction back anyway).
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
          ? insert.onConflict((oc) =>
              oc
                .columns(keys)
                .doUpdateSet((eb) =>
                  Object.fromEntries(
                    columns.filter((c) => !keys.includes(c)).map((c) => [c, conflictSet[c] ?? eb.ref(`excluded.${c}`)]),
                  ),
                ),
            )
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
  table: 'profiles' | 'tags' | 'feeds' | 'posts' | 'comments',
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
