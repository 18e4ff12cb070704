// The import's one-pass search load writes the documents the search triggers would have written: its runtime copy of
// their expressions (import/search-load-documents.ts) is compared with the triggers that the frozen migrations made.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresDocument,
  sqliteColumns,
  sqliteTexts,
  type SearchSource,
} from '../../src/import/search-load-documents.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore();
});
afterAll(() => t.cleanup());

const sources: readonly SearchSource[] = ['posts', 'comments'];

/** The text of what keeps `source`'s search rows in step: its insert trigger (SQLite), its trigger function (PostgreSQL). */
async function triggerText(source: SearchSource): Promise<string> {
  const { db, dialect } = t.store;
  const { rows } =
    dialect.name === 'postgres'
      ? await sql<{
          text: string;
        }>`select prosrc as text from pg_proc where proname = ${`hearth_index_${source}`}`.execute(db)
      : await sql<{
          text: string;
        }>`select sql as text from sqlite_master where type = 'trigger' and name = ${`${source}_search_insert`}`.execute(
          db,
        );
  expect(rows).toHaveLength(1);
  return rows[0]?.text ?? '';
}

describe('search documents', () => {
  for (const source of sources) {
    it(`of ${source}: the load's expression is the trigger's`, async () => {
      const text = await triggerText(source);
      if (t.store.dialect.name === 'postgres') {
        expect(text).toContain(`values (new.community_id, new.id, new.created_at, ${postgresDocument(source, 'new')})`);
      } else {
        expect(text).toContain(`(rowid, ${sqliteColumns(source)}) select docid, ${sqliteTexts(source, 'new')} from`);
      }
    });
  }
});
