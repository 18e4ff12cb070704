// Chunked upserts and deletes for the import, sized to stay under both stores' bind-parameter limits.
import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';

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
  const byShape = texts.get(adapter) ?? new Map<string, string>();
  texts.set(adapter, byShape);
  const setText = Object.entries(conflictSet)
    .map(([column, value]) => `${column}=${value.compile(db).sql}`)
    .join(',');
  const perStatement = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(Math.max(1, MAX_PARAMETERS / columns.length))));
  let at = 0;
  while (at < rows.length) {
    let size = perStatement;
    while (size > rows.length - at) size /= 2;
    const shape = `${table}|${columns.join(',')}|${conflictKeys?.join(',') ?? ''}|${setText}|${size}`;
    let text = byShape.get(shape);
    if (text === undefined) {
      const template = Object.fromEntries(columns.map((column) => [column, null]));
      const insert = (db as unknown as Loose).insertInto(table).values(Array.from({ length: size }, () => template));
      text = (
        conflictKeys
          ? insert.onConflict((oc) =>
              oc
                .columns(conflictKeys)
                .doUpdateSet((eb) =>
                  Object.fromEntries(
                    columns
                      .filter((c) => !conflictKeys.includes(c))
                      .map((c) => [c, conflictSet[c] ?? eb.ref(`excluded.${c}`)]),
                  ),
                ),
            )
          : insert
      ).compile().sql;
      byShape.set(shape, text);
    }
    const values: unknown[] = [];
    for (let i = at; i < at + size; i++) {
      const row = rows[i] as Row;
      for (const column of columns) {
        const value = row[column];
        if (value === undefined) throw new Error(`${table}: a row without ${column}`);
        values.push(typeof value === 'boolean' ? Number(value) : value);
      }
    }
    await db.executeQuery(CompiledQuery.raw(text, values));
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
