// PostgreSQL: the large columns are compressed with lz4 (migration 009), and so are the values an import moves
// through its staging tables (which would otherwise keep their pglz compression in the table they move to).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { upsertRows } from '../../src/db/batch.js';
import { importStoreFor } from '../../src/import/write-store.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

let t: TestStore;
beforeAll(async () => {
  if (testDatabaseUrl) t = await createTestStore();
});
afterAll(() => t?.cleanup());

describe.runIf(testDatabaseUrl)('lz4 compression on PostgreSQL', () => {
  it('is set on the large columns', async () => {
    const { rows } = await sql<{ column: string; compression: string }>`
      select c.relname || '.' || a.attname as column, a.attcompression as compression
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      where a.attcompression <> '' and c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      order by 1`.execute(t.store.db);
    expect(rows).toEqual([
      { column: 'calendar_events.description_chat_blocks', compression: 'l' },
      { column: 'comments.chat_message', compression: 'l' },
      { column: 'fragments.body', compression: 'l' },
      { column: 'posts.body_plaintext', compression: 'l' },
      { column: 'posts.body_prosemirror', compression: 'l' },
      { column: 'posts.chat_message', compression: 'l' },
    ]);
  });

  it('compresses what an import upserts through its staging table with lz4', async () => {
    const community = (
      await createCommunitiesService(t.store.db, t.store.dialect, () => Date.now()).create('lz4', 'lz4')
    ).id;
    // 8 KB of text that compresses: over the ~2 KB threshold.
    const body = Buffer.from('{"text":"a fragment body"}'.repeat(300));
    await importStoreFor(t.store.dialect).transaction(t.store.db, (trx) =>
      upsertRows(
        trx,
        'fragments',
        [{ community_id: community, kind: 'tag', id: 'big', version: 1, refs: '', body }],
        ['community_id', 'kind', 'id'],
      ),
    );
    const { rows } = await sql<{ method: string; same: boolean }>`
      select pg_column_compression(body) as method, body = ${body} as same from fragments
      where community_id = ${community} and id = 'big'`.execute(t.store.db);
    expect(rows).toEqual([{ method: 'lz4', same: true }]);
  });
});
