// PostgreSQL's proven top k (postgres-search-topk.ts) on random corpora: every window it proves is the exact ranking's,
// it proves the windows of frequent words, and search answers every page exactly through it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { planOf } from '../../src/search/postgres-search-index.js';
import { exactTopWindow } from '../../src/search/postgres-search-topk.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord'];
const FILLER = ['moss', 'reed', 'sand', 'tide', 'wind', 'loam', 'pine', 'rock', 'salt', 'vale', 'wave', 'yarn'];
const DOCS = 400;

let t: TestApp;
let community: string;

const word = fc.constantFrom(...WORDS);
const words = (min: number, max: number) =>
  fc.array(fc.oneof(word, fc.constantFrom(...FILLER)), { minLength: min, maxLength: max }).map((w) => w.join(' '));
/** Titles of 1-5 words and bodies of 0-80: lengths spread, title words repeated, many equal scores. */
const doc = fc.record({ title: words(1, 5), body: words(0, 80), day: fc.integer({ min: 1, max: 4 }) });

const query = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a} OR ${b}`),
  fc.tuple(word, word, word).map(([a, b, c]) => `${a} OR ${b} ${c}`),
  fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`),
  fc.tuple(word, word).map(([a, b]) => `${a} -${b}`),
);

beforeAll(async () => {
  if (!testDatabaseUrl) return;
  t = await createTestApp();
  ({ community } = await t.seed('topk', baseRecords));
  const docs = fc.sample(doc, { numRuns: DOCS, seed: 23 });
  await t.importRecords(
    community,
    docs.map((d, i) => ({
      kind: 'post',
      id: `topk${String(i).padStart(8, '0')}`,
      created_at: `2025-02-0${d.day}T00:00:00Z`,
      feed_id: feedIds.general,
      title: d.title,
      body_plaintext: d.body,
    })),
  );
});
afterAll(() => t?.close());

const exact = (q: string, offset: number, limit: number) =>
  exactSearch(t.testStore.store.dialect)(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
    limit,
    offset,
  });

describe.runIf(testDatabaseUrl)('PostgreSQL proven top k', () => {
  it('proves only exact windows, and proves those of frequent words', async () => {
    let proven = 0;
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 25 }),
        async (q, offset, limit) => {
          const plan = planOf('post', community, parseSearchQuery(q));
          if (plan === null) return;
          const window = await exactTopWindow(t.testStore.store.db, plan, { offset, limit }, 2000);
          if (window === null) return;
          proven++;
          expect(window, q).toEqual(await exact(q, offset, limit));
        },
      ),
      { numRuns: 150, seed: 24 },
    );
    expect(proven).toBeGreaterThan(30);
  });

  it('proves the first page of every single word (their tenth best is a short title)', async () => {
    for (const w of WORDS) {
      const plan = planOf('post', community, parseSearchQuery(w));
      if (plan === null) throw new Error('no plan');
      expect(await exactTopWindow(t.testStore.store.db, plan, { offset: 0, limit: 10 }, 2000), w).toEqual(
        await exact(w, 0, 10),
      );
    }
  });

  it('answers every page exactly with a budget far below the matches, the total exact', async () => {
    const index = searchIndexFor(t.testStore.store.dialect, { rankBudget: 5, titleCandidates: 60 });
    for (const q of ['amber', 'birch OR cedar', 'delta ember', '"fjord amber"', 'cedar -delta']) {
      const expected = await exact(q, 0, 1000);
      const seen: string[] = [];
      for (let offset = 0; offset < 60; offset += 10) {
        const hits = await index.search(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
          offset,
          limit: 10,
        });
        expect(hits.total, q).toBe(expected.length);
        seen.push(...hits.ids);
      }
      // Within the title candidates the budgeted answer is the exact one too: proven or not, the same pages.
      expect(seen, q).toEqual(expected.slice(0, 60));
    }
  });
});
