// The keys that break ties between equal scores (SQLite) are read for any number of docids: a word in every comment
// gives tens of thousands of equal scores, past SQLite's bound on a statement's parameters (32,766).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { keysReader, scopeOf } from '../../src/search/sqlite-search-statements.js';
import { datedPost } from '../helpers/dated-post.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let community: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community } = await t.seed('tie-keys', baseRecords));
  await t.importRecords(community, [
    datedPost('tiekeys00001', 'harbor', 'lantern', 3),
    datedPost('tiekeys00002', 'harbor', 'lantern', 4),
  ]);
});
afterAll(() => t.close());

describe('tie keys on SQLite', () => {
  it('reads the keys of 40,000 docids in one statement, those held and no others', async (context) => {
    // PostgreSQL breaks ties in its ranking statements: there is no such read.
    if (t.testStore.store.dialect.name !== 'sqlite') return context.skip();
    const db = t.testStore.store.db;
    const { rows } = await sql<{ docid: number; id: string; created_at: string }>`
      select docid, id, created_at from post_search_docs
      where id in ('tiekeys00001', 'tiekeys00002') order by docid`.execute(db);
    expect(rows.map((row) => row.id)).toEqual(['tiekeys00001', 'tiekeys00002']);
    const held = rows.map((row) => row.docid);
    const asked = [...Array.from({ length: 40_000 }, (_, i) => -1 - i), ...held];
    const keys = await keysReader(db, scopeOf('post'))(asked);
    expect(keys.sort((a, b) => a.docid - b.docid)).toEqual(
      rows.map((row) => ({ docid: row.docid, id: row.id, createdAt: row.created_at })),
    );
  });
});
