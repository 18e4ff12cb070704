// PostgreSQL: an import into tables that hold few rows drops their secondary indexes and the foreign keys between
// them, and makes each again after its rows, the same as before; rolled back, it keeps them; a table another
// session holds keeps its own.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { demoRecords } from '../../src/demo/demo-records.js';
import { ImportError } from '../../src/import/problems.js';
import { importLines } from '../../src/import/import.service.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

let t: TestStore;
beforeAll(async () => {
  if (testDatabaseUrl) t = await createTestStore();
});
afterAll(() => t?.cleanup());

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** Every index, foreign key and primary key of the schema: its table, name, definition, and identity (oid). */
async function schema(): Promise<{ table: string; name: string; definition: string; oid: number }[]> {
  const { rows } = await sql<{ table: string; name: string; definition: string; oid: number }>`
    select t.relname as "table", i.relname as name, pg_get_indexdef(i.oid) as definition, i.oid::int as oid
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
    where t.relnamespace = current_schema()::regnamespace
    union all
    select t.relname, c.conname, pg_get_constraintdef(c.oid), c.oid::int
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where c.contype in ('f', 'p') and t.relnamespace = current_schema()::regnamespace
    order by 1, 2, 3`.execute(t.store.db);
  return rows;
}

const withoutOid = (rows: Awaited<ReturnType<typeof schema>>) => rows.map(({ oid: _oid, ...rest }) => rest);
/** The oid of the index `name` or, for a name starting `key:`, of the foreign or primary key. */
const oidOf = (rows: Awaited<ReturnType<typeof schema>>, name: string) =>
  rows.find((row) =>
    name.startsWith('key:')
      ? row.name === name.slice(4) && /^(FOREIGN|PRIMARY) KEY/.test(row.definition)
      : row.name === name && row.definition.startsWith('CREATE'),
  )?.oid;

async function community(slug: string): Promise<string> {
  return (await createCommunitiesService(t.store.db, t.store.dialect, () => NOW).create(slug, slug)).id;
}

const lines = (seed: number) => [...demoRecords({ now: NOW, scale: 60, seed })].map((r) => JSON.stringify(r));

describe.runIf(testDatabaseUrl)('indexes and foreign keys made again after an import (PostgreSQL)', () => {
  it('keeps every one when the import is refused', async () => {
    const before = await schema();
    const bad = [...lines(5), JSON.stringify({ kind: 'post', id: 'lost', feed_id: 'no-such-feed', title: 'x' })];
    await expect(importLines(t.store, await community('refused'), bad)).rejects.toBeInstanceOf(ImportError);
    expect(await schema()).toEqual(before);
  });

  it('drops and makes again those of the tables it fills, each as it was', async () => {
    const before = await schema();
    await importLines(t.store, await community('first'), lines(7));
    const after = await schema();
    expect(withoutOid(after)).toEqual(withoutOid(before));
    // Made again: new objects, not the ones that were there.
    for (const name of [
      'posts_activity',
      'comments_post',
      'key:comments_post',
      'profiles_chat_user',
      'post_search_document',
      // The search tables' keys too: their documents go in by plain inserts.
      'post_search_pkey',
      'key:post_search_pkey',
      'key:comment_search_pkey',
      // And the kept ranks' key: their rows go in by one insert after the documents.
      'key:post_search_ranks_pkey',
    ])
      expect(oidOf(after, name)).not.toBe(oidOf(before, name));
    // The source tables' unique indexes are constraints of the rows as they go in: kept.
    expect(oidOf(after, 'posts_pk')).toBe(oidOf(before, 'posts_pk'));
    expect(oidOf(after, 'key:posts_pk')).toEqual(expect.any(Number));
    expect(oidOf(after, 'key:posts_pk')).toBe(oidOf(before, 'key:posts_pk'));
    const { rows } = await sql<{ posts: number }>`select count(*)::int as posts from posts`.execute(t.store.db);
    expect(rows[0]?.posts).toBeGreaterThan(50);
  });

  it('keeps those of a table another session holds, after waiting briefly for it', async () => {
    // A store of its own, whose tables hold nothing yet.
    await t.cleanup();
    t = await createTestStore();
    const before = await schema();
    const reader = new pg.Client({ connectionString: t.url });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from posts');
      await importLines(t.store, await community('held'), lines(9));
    } finally {
      await reader.query('rollback');
      await reader.end();
    }
    const after = await schema();
    expect(withoutOid(after)).toEqual(withoutOid(before));
    // posts was held: its indexes stay, and so do the foreign keys to and from it; the other tables' are made again.
    for (const name of ['posts_activity', 'key:posts_feed', 'key:comments_post'])
      expect([name, oidOf(after, name)]).toEqual([name, oidOf(before, name)]);
    for (const name of ['comments_post', 'key:comments_author', 'profiles_chat_user'])
      expect([name, oidOf(after, name)]).not.toEqual([name, oidOf(before, name)]);
  });
});
