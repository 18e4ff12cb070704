// SQLite plans the import's look-ups from its indexes alone (it keeps no statistics): the held-posts look-up must
// probe the key index, not walk every post of the community through a secondary index that covers its columns.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldPosts } from '../../src/import/write-chunks.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

let t: TestStore;
beforeAll(async () => {
  if (!testDatabaseUrl) t = await createTestStore();
});
afterAll(() => t?.cleanup());

describe.skipIf(testDatabaseUrl)('import look-ups on SQLite', () => {
  it('find held posts by the key index, one probe per id', async () => {
    const ids = Array.from({ length: 500 }, (_, n) => `post-${n}`);
    const query = heldPosts(t.store.db, 'community', ids).compile();
    const plan = await t.store.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    expect(plan.rows.map((row) => row.detail)).toEqual([
      'SEARCH posts USING INDEX sqlite_autoindex_posts_1 (community_id=? AND id=?)',
    ]);
  });
});
