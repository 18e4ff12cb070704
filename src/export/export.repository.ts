// SQL of the export: one community's rows of a table in keyset-paged batches (by id), so memory stays flat.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';

const BATCH = 1000;
export type ExportedTable =
  | 'feeds'
  | 'profiles'
  | 'tags'
  | 'calendar_events'
  | 'posts'
  | 'comments'
  | 'badges'
  | 'groups';

export async function* rowsOf<T extends ExportedTable>(db: Kysely<Database>, table: T, communityId: string) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom(table as ExportedTable)
      .selectAll()
      .where('community_id', '=', communityId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    // Kysely types a select from a union of tables as their common columns: the rows are whole rows of `table`.
    yield rows as unknown as Selectable<Database[T]>[];
    after = rows[rows.length - 1]?.id ?? after;
    if (rows.length < BATCH) return;
  }
}
