// Chunked upserts and deletes for the import, sized to stay under both stores' bind-parameter limits.
import type { Kysely } from 'kysely';
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

/** Inserts rows, replacing the columns of rows whose (community_id, id) already exists. */
export async function upsertRows(
  db: Kysely<Database>,
  table: keyof Database,
  rows: Row[],
  keys: string[] = ['community_id', 'id'],
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const updates = columns.filter((c) => !keys.includes(c));
  for (const part of chunk(rows, Math.max(1, Math.floor(MAX_PARAMETERS / columns.length)))) {
    await (db as unknown as Loose)
      .insertInto(table)
      .values(part)
      .onConflict((oc) =>
        oc.columns(keys).doUpdateSet((eb) => Object.fromEntries(updates.map((c) => [c, eb.ref(`excluded.${c}`)]))),
      )
      .execute();
  }
}

export async function insertRows(db: Kysely<Database>, table: keyof Database, rows: Row[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  for (const part of chunk(rows, Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(first).length)))) {
    await (db as unknown as Loose).insertInto(table).values(part).execute();
  }
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
