// PostgreSQL compresses the large columns (rendered fragments, chat messages, rich text) with lz4 instead of pglz:
// the same sizes, written and read back faster (measured: bench/analysis.md, 'Figures behind the code's choices').
// New values only; a server built without lz4 keeps pglz.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/** Columns whose values often pass PostgreSQL's ~2 KB threshold for compression. */
const LARGE_COLUMNS: readonly [string, string][] = [
  ['fragments', 'body'],
  ['posts', 'chat_message'],
  ['posts', 'body_prosemirror'],
  ['posts', 'body_plaintext'],
  ['comments', 'chat_message'],
  ['calendar_events', 'description_chat_blocks'],
];

export function lz4CompressionMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (store !== 'postgres') return;
      const statements = LARGE_COLUMNS.map(
        ([table, column]) => `alter table ${table} alter column ${column} set compression lz4;`,
      );
      await sql
        .raw(`do $$ begin ${statements.join(' ')} exception when feature_not_supported then null; end $$`)
        .execute(db);
    },
  };
}
