// Search ranks as exact bm25 (SQLite) or ts_rank (PostgreSQL) over every match would, on random corpora and queries:
// the same ids in the same order on every page, exact totals, pages that never repeat or skip, kept answers
// (the answer cache) that follow every write at once.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heron', 'inlet', 'juniper', 'kelp'];
const DOCS = 120;

let t: TestApp;
let community: string;
let token: string;

const word = fc.constantFrom(...WORDS);
const text = (max: number) => fc.array(word, { minLength: 0, maxLength: max }).map((words) => words.join(' '));
const doc = fc.record({ title: text(4), body: text(30), day: fc.integer({ min: 1, max: 28 }) });

beforeAll(async () => {
  t = await createTestApp();
  ({ community, token } = await t.seed('ranking', baseRecords));
  const docs = fc.sample(doc, { numRuns: DOCS, seed: 40 });
  await t.importRecords(
    community,
    docs.map((d, i) => ({
      kind: 'post',
      id: `rank${String(i).padStart(8, '0')}`,
      // Few distinct dates: ties of score and date are broken by id.
      created_at: `2025-02-${String(d.day % 4 || 1).padStart(2, '0')}T00:00:00Z`,
      feed_id: feedIds.general,
      title: d.title || null,
      body_plaintext: d.body,
    })),
  );
});
afterAll(() => t.close());

interface Page {
  ids: string[];
  total: number;
  hasNext: boolean;
}

async function page(q: string, n: number, perPage: number): Promise<Page> {
  const res = await t.get(`/admin/v0/search?type=post&q=${encodeURIComponent(q)}&page=${n}&per_page=${perPage}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { total_records: number; has_next: boolean; records: { id: string }[] };
  return { ids: data.records.map((r) => r.id), total: data.total_records, hasNext: data.has_next };
}

/** Every match in exact order, from the reference ranking (bench/exact-search.ts). */
const exact = (q: string) =>
  exactSearch(t.testStore.store.dialect)(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
    limit: 1000,
    offset: 0,
  });

const query = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a} OR ${b}`),
  fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`),
  fc.tuple(word, word).map(([a, b]) => `${a} -${b}`),
);

describe('search ranking against the exact ranking', () => {
  it('answers every page of a random query as the exact ranking does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 25 }), async (q, perPage) => {
        const expected = await exact(q);
        const seen: string[] = [];
        for (let n = 0; ; n++) {
          const got = await page(q, n, perPage);
          expect(got.total, q).toBe(expected.length);
          seen.push(...got.ids);
          if (!got.hasNext) break;
        }
        // Pages never repeat or skip: together they are the exact ranking, once each.
        expect(seen, q).toEqual(expected);
        // Asked again (now from the answer cache), the same first page.
        expect((await page(q, 0, perPage)).ids).toEqual(expected.slice(0, perPage));
      }),
      { numRuns: 40, seed: 41 },
    );
  });

  it('follows a write at once: a new post matches, an edited one stops matching, totals follow', async () => {
    const before = await page('juniper', 0, 100);
    expect(before.ids).toEqual(await exact('juniper'));
    await t.importRecords(community, [
      {
        kind: 'post',
        id: 'ranknew00001',
        created_at: '2025-03-01T00:00:00Z',
        feed_id: feedIds.general,
        title: 'juniper juniper juniper',
        body_plaintext: 'juniper',
      },
    ]);
    const after = await page('juniper', 0, 100);
    expect(after.total).toBe(before.total + 1);
    expect(after.ids[0]).toBe('ranknew00001');
    expect(after.ids).toEqual(await exact('juniper'));
    await t.importRecords(community, [
      {
        kind: 'post',
        id: 'ranknew00001',
        created_at: '2025-03-01T00:00:00Z',
        feed_id: feedIds.general,
        title: 'quartz',
        body_plaintext: 'quartz',
      },
    ]);
    const edited = await page('juniper', 0, 100);
    expect(edited.total).toBe(before.total);
    expect(edited.ids).toEqual(before.ids);
    expect((await page('quartz', 0, 10)).ids).toEqual(['ranknew00001']);
  });
});
