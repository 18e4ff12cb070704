// The index stays in step with the data: re-imports and updates re-index in the import's transaction, failed imports
// leave it untouched, migration 002 indexes rows that existed before it, and long texts are indexed to a bound.
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialMigration } from '../../src/db/migrations/001-initial.js';
import { BODY_INDEX_LIMIT } from '../../src/import/search-load-documents.js';
import { openStore } from '../../src/db/store.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { importLines } from '../../src/import/import.service.js';
import { upgradeStore } from '../../src/store-upgrade.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-store.js';
import { emptyReferences } from '../../src/schemas/references.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';

let t: TestApp;
let community: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community, token } = await t.seed('acme', baseRecords));
});
afterAll(() => t.close());

const post = (id: string, title: string, body: string, created_at = '2025-01-01T00:00:00Z') => ({
  kind: 'post',
  id,
  created_at,
  feed_id: feedIds.general,
  title,
  body_plaintext: body,
});

async function found(q: string, type: 'post' | 'comment' = 'post'): Promise<string[]> {
  const res = await t.get(`/admin/v0/search?type=${type}&q=${encodeURIComponent(q)}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { total_records: number; records: { id: string }[] };
  expect(data.total_records).toBe(data.records.length);
  return data.records.map((r) => r.id);
}

describe('kept in step with imports', () => {
  it('re-indexes a re-imported post: old words no longer match, new ones do', async () => {
    await t.importRecords(community, [post('idxedit00001', 'Zebra crossing', 'black and white stripes')]);
    expect(await found('zebra stripes')).toEqual(['idxedit00001']);
    await t.importRecords(community, [post('idxedit00001', 'Giraffe neck', 'tall and spotted')]);
    expect(await found('zebra')).toEqual([]);
    expect(await found('stripes')).toEqual([]);
    expect(await found('giraffe spotted')).toEqual(['idxedit00001']);
  });

  it('re-orders ties when created_at changes', async () => {
    await t.importRecords(community, [
      post('idxtie000001', 'Okapi', 'forest', '2025-01-01T00:00:00Z'),
      post('idxtie000002', 'Okapi', 'forest', '2025-01-02T00:00:00Z'),
    ]);
    expect(await found('okapi')).toEqual(['idxtie000002', 'idxtie000001']);
    await t.importRecords(community, [post('idxtie000001', 'Okapi', 'forest', '2025-01-03T00:00:00Z')]);
    expect(await found('okapi')).toEqual(['idxtie000001', 'idxtie000002']);
  });

  it('re-indexes a re-imported comment', async () => {
    await t.importRecords(community, [
      post('idxparent001', 'Parent', 'thread'),
      {
        kind: 'comment',
        id: 'idxcmt000001',
        created_at: '2025-01-02T00:00:00Z',
        parent_post_id: 'idxparent001',
        body_plaintext: 'marmot burrow',
      },
    ]);
    expect(await found('marmot', 'comment')).toEqual(['idxcmt000001']);
    await t.importRecords(community, [
      {
        kind: 'comment',
        id: 'idxcmt000001',
        created_at: '2025-01-02T00:00:00Z',
        parent_post_id: 'idxparent001',
        body_plaintext: 'beaver dam',
      },
    ]);
    expect(await found('marmot', 'comment')).toEqual([]);
    expect(await found('beaver dam', 'comment')).toEqual(['idxcmt000001']);
  });

  it('leaves the index untouched when an import fails', async () => {
    const lines = [
      JSON.stringify(post('idxfail00001', 'Walrus', 'tusks')),
      JSON.stringify({ kind: 'post', id: 'bad' }),
    ];
    await expect(importLines(t.testStore.store, community, lines)).rejects.toThrow(/line 2/);
    expect(await found('walrus')).toEqual([]);
  });

  it('keeps a post found when a new comment updates its count and activity', async () => {
    await t.importRecords(community, [
      post('idxcount0001', 'Heron', 'wading'),
      {
        kind: 'comment',
        id: 'idxcount0c01',
        created_at: '2026-01-01T00:00:00Z',
        parent_post_id: 'idxcount0001',
        body_plaintext: 'egret',
      },
    ]);
    expect(await found('heron')).toEqual(['idxcount0001']);
    expect(await found('egret', 'comment')).toEqual(['idxcount0c01']);
  });
});

describe('long texts', () => {
  it(`indexes the first ${BODY_INDEX_LIMIT} characters of a body, on both stores alike`, async () => {
    const filler = 'lorem '.repeat(Math.ceil(BODY_INDEX_LIMIT / 6));
    await t.importRecords(community, [post('idxlong00001', 'Long read', `ibis ${filler} narwhal`)]);
    expect(await found('ibis')).toEqual(['idxlong00001']);
    expect(await found('narwhal')).toEqual([]);
  });

  it('imports and indexes a body of as many distinct words as the bound allows', async () => {
    // Two-character CJK words: the most distinct lexemes (and bytes) per character; PostgreSQL's 1 MB tsvector limit holds.
    const words = Array.from({ length: Math.ceil(BODY_INDEX_LIMIT / 3) }, (_, i) =>
      String.fromCodePoint(0x4e00 + (i % 20_000), 0x4e00 + Math.floor(i / 20_000)),
    );
    await t.importRecords(community, [post('idxwide00001', 'Wide', `${words.join(' ')} tapir`)]);
    expect(await found(words[1] ?? '')).toEqual(['idxwide00001']);
  });
});

describe('migration 002', () => {
  it('indexes the posts and comments that existed before it', async () => {
    const database = await createTestDatabase();
    const store = openStore(database.url, 2);
    try {
      const before = new Migrator({
        db: store.db,
        provider: { getMigrations: async () => ({ '001-initial': initialMigration(store.dialect.name) }) },
      });
      const result = await before.migrateToLatest();
      expect(result.error).toBeUndefined();
      const { id } = await createCommunitiesService(store.db, store.dialect).create('old', 'Old');
      // Rows as an import of that time wrote them (today's import also writes what later migrations add).
      const at = '2025-01-01 00:00:00.000000';
      const feedId = feedIds.general;
      await store.db
        .insertInto('feeds')
        .values({
          community_id: id,
          id: feedId,
          created_at: at,
          label: 'General',
          slug: 'general',
          is_archived: false,
          is_unlisted: false,
          chat_channel_id: null,
          posts_count: 2,
        })
        .execute();
      const postRow = (postId: string, title: string, body: string) => ({
        community_id: id,
        id: postId,
        created_at: at,
        updated_at: at,
        content_created_at: null,
        latest_activity_at: at,
        title,
        slug: null,
        feed_id: feedId,
        post_detail_display_format: null,
        author_profile_id: null,
        read_time_minutes: 1,
        source: null,
        file_attachments_count: 0,
        reactions_count: 0,
        comments_count: 0,
        body_plaintext: body,
        body_prosemirror: null,
        chat_message: null,
        cover_image_file_id: null,
        cover_image_url: null,
        references: JSON.stringify(emptyReferences()),
      });
      await store.db
        .insertInto('posts')
        .values([
          postRow('oldpost00001', 'Pelican', 'bill pouch'),
          postRow('oldpost00002', 'Flamingo', 'pink pelican feathers'),
        ])
        .execute();
      await store.db
        .insertInto('comments')
        .values({
          community_id: id,
          id: 'oldcmt000001',
          created_at: '2025-02-01 00:00:00.000000',
          updated_at: '2025-02-01 00:00:00.000000',
          post_id: 'oldpost00001',
          parent_comment_id: null,
          author_profile_id: null,
          body_plaintext: 'a pelican indeed',
          chat_message: null,
          reactions_count: 0,
          file_attachments_count: 0,
          references: JSON.stringify(emptyReferences()),
        })
        .execute();

      // As a start brings it up to date: migrations, then the renders migration 003 left pending.
      await upgradeStore(store);
      const index = searchIndexFor(store.dialect);
      const window = { limit: 10, offset: 0 };
      const query = parseSearchQuery('pelican');
      expect(await index.search(store.db, 'post', id, query, window)).toEqual({
        ids: ['oldpost00001', 'oldpost00002'],
        total: 2,
      });
      expect(await index.search(store.db, 'comment', id, query, window)).toEqual({ ids: ['oldcmt000001'], total: 1 });

      // And the triggers keep the migrated index in step from then on.
      await importLines(store, id, [JSON.stringify(post('oldpost00003', 'Pelican', 'again'))]);
      expect((await index.search(store.db, 'post', id, query, window)).total).toBe(3);
      // The posts that existed before migration 003 were rendered at start, and the import rendered the new one.
      const rendered = await store.db
        .selectFrom('fragments')
        .select('id')
        .where('community_id', '=', id)
        .where('kind', '=', 'post')
        .orderBy('id')
        .execute();
      expect(rendered.map((row) => row.id)).toEqual(['oldpost00001', 'oldpost00002', 'oldpost00003']);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
