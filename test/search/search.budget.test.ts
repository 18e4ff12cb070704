// The rank budget on generated communities: within it, answers are exactly those of the exact ranking used before it;
// beyond it, pages stay disjoint and complete, the title candidates first and the rest after, each run in exact order.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { defaultBudget } from '../../src/search/search-budget.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import type { SearchIndex } from '../../src/search/search-index.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const WORDS = ['harbor', 'lantern', 'willow', 'copper', 'meadow', 'falcon'];
const DATES = ['2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z', '2025-03-01T00:00:00Z'];

interface GeneratedPost {
  title: string[];
  body: string[];
  date: number;
}

/** Posts of a few words from a small vocabulary on three dates: many matches per word, many equal scores. */
const postArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS, 'notes'), { minLength: 1, maxLength: 4 }),
  body: fc.array(fc.constantFrom(...WORDS, 'and', 'the'), { maxLength: 10 }),
  date: fc.nat({ max: DATES.length - 1 }),
});
const communityArb = fc.array(postArb, { minLength: 20, maxLength: 60 });

const QUERIES = [
  ...WORDS,
  'harbor lantern',
  'willow copper meadow',
  '"harbor lantern"',
  '"lantern harbor"',
  'harbor OR falcon',
  'copper OR "meadow willow"',
  'harbor -lantern',
  'falcon -copper -meadow',
  'notes',
  'notes OR harbor lantern',
];

let t: TestApp;
let communities = 0;
const exact = () => exactSearch(t.testStore.store.dialect);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function generated(posts: GeneratedPost[]): Promise<string> {
  const community = await t.community(`budget${++communities}`);
  await t.importRecords(community, [
    ...baseRecords,
    ...posts.map((post, i) => ({
      kind: 'post',
      id: `budgetpost${String(i).padStart(2, '0')}`,
      created_at: DATES[post.date],
      feed_id: feedIds.general,
      title: post.title.join(' '),
      body_plaintext: post.body.join(' '),
    })),
  ]);
  return community;
}

/** Every page of `q` at `perPage`, joined, with the total each page reported. */
async function allPages(
  index: SearchIndex,
  community: string,
  q: string,
  perPage: number,
): Promise<{ ids: string[]; totals: Set<number> }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += perPage) {
    const hits = await index.search(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
      limit: perPage,
      offset,
    });
    totals.add(hits.total);
    ids.push(...hits.ids);
    if (offset + perPage >= hits.total) return { ids, totals };
  }
}

/** True when `part` lists its ids in the order they have in `order`. */
const inOrderOf = (part: string[], order: string[]): boolean => {
  const at = part.map((id) => order.indexOf(id));
  return at.every((position, i) => position >= 0 && (i === 0 || position > (at[i - 1] ?? -1)));
};

describe('within the budget', () => {
  it('answers every window exactly as the exact ranking did (ties by date then id)', async () => {
    const index = searchIndexFor(t.testStore.store.dialect, defaultBudget);
    await fc.assert(
      fc.asyncProperty(communityArb, async (posts) => {
        const community = await generated(posts);
        for (const q of QUERIES) {
          const query = parseSearchQuery(q);
          const everything = await exact()(t.testStore.store.db, 'post', community, query, { limit: 1000, offset: 0 });
          for (const [limit, offset] of [
            [10, 0],
            [1, 0],
            [3, 2],
            [7, 7],
            [5, everything.length - 2],
            [10, everything.length],
          ]) {
            const window = { limit: limit ?? 1, offset: Math.max(0, offset ?? 0) };
            const hits = await index.search(t.testStore.store.db, 'post', community, query, window);
            expect(hits.ids, `${q} ${JSON.stringify(window)}`).toEqual(
              await exact()(t.testStore.store.db, 'post', community, query, window),
            );
            expect(hits.total).toBe(everything.length);
          }
        }
      }),
      { numRuns: 4, seed: 12 },
    );
  });

  it('answers the API exactly as the exact ranking did', async () => {
    const community = await generated(fc.sample(communityArb, { numRuns: 1, seed: 7 })[0] ?? []);
    const token = await t.token(community);
    for (const q of ['harbor', 'harbor lantern', 'copper OR falcon']) {
      for (const page of [0, 1]) {
        const res = await t.get(`/admin/v0/search?type=post&per_page=4&page=${page}&q=${encodeURIComponent(q)}`, token);
        const data = res.json().data as { total_records: number; records: { id: string }[] };
        const query = parseSearchQuery(q);
        expect(data.records.map((record) => record.id)).toEqual(
          await exact()(t.testStore.store.db, 'post', community, query, { limit: 4, offset: 4 * page }),
        );
        expect(data.total_records).toBe(
          (await exact()(t.testStore.store.db, 'post', community, query, { limit: 1000, offset: 0 })).length,
        );
      }
    }
  });
});

describe('beyond the budget', () => {
  const budget = { rankBudget: 5, titleCandidates: 4 };

  it('pages are disjoint and complete, in two runs each in exact order: at most titleCandidates first, then the rest', async () => {
    const index = searchIndexFor(t.testStore.store.dialect, budget);
    await fc.assert(
      fc.asyncProperty(communityArb, async (posts) => {
        const community = await generated(posts);
        for (const q of QUERIES) {
          const order = await exact()(t.testStore.store.db, 'post', community, parseSearchQuery(q), {
            limit: 1000,
            offset: 0,
          });
          const byThree = await allPages(index, community, q, 3);
          const bySeven = await allPages(index, community, q, 7);
          expect([...byThree.totals]).toEqual([order.length]);
          expect(byThree.ids, q).toEqual(bySeven.ids);
          expect([...byThree.ids].sort()).toEqual([...order].sort());
          const split = [...Array(budget.titleCandidates + 1).keys()].find(
            (k) => inOrderOf(byThree.ids.slice(0, k), order) && inOrderOf(byThree.ids.slice(k), order),
          );
          expect(split, `${q}: ${byThree.ids.join(' ')} against ${order.join(' ')}`).toBeDefined();
        }
      }),
      { numRuns: 3, seed: 21 },
    );
  });

  it('puts the title hits first, in exact order, then the other matches in exact order', async () => {
    const filler = Array.from({ length: 60 }, (_, i) => WORDS[1 + (i % (WORDS.length - 1))] ?? 'and');
    const community = await generated([
      ...Array.from({ length: 6 }, (_, i) => ({ title: ['notes'], body: ['harbor', 'and', 'harbor'], date: i % 3 })),
      { title: ['harbor'], body: filler, date: 0 },
      { title: ['harbor', 'harbor'], body: [], date: 0 },
      { title: ['notes'], body: ['harbor', 'harbor', 'harbor', 'harbor'], date: 2 },
      { title: ['copper', 'harbor'], body: ['meadow'], date: 1 },
    ]);
    const titled = new Set(['budgetpost06', 'budgetpost07', 'budgetpost09']);
    const query = parseSearchQuery('harbor');
    const all = await exact()(t.testStore.store.db, 'post', community, query, { limit: 100, offset: 0 });
    const search = (titleCandidates: number, limit: number, offset: number) =>
      searchIndexFor(t.testStore.store.dialect, { rankBudget: 5, titleCandidates }).search(
        t.testStore.store.db,
        'post',
        community,
        query,
        { limit, offset },
      );

    const first = all.filter((id) => titled.has(id));
    expect(await search(3, 100, 0)).toEqual({ ids: [...first, ...all.filter((id) => !titled.has(id))], total: 10 });
    expect(await search(3, 2, 2)).toEqual({ ids: [first[2], all.filter((id) => !titled.has(id))[0]], total: 10 });
    // One candidate: the best title hit, then every other match (the other title hits among them) in exact order.
    expect((await search(1, 100, 0)).ids).toEqual([first[0], ...all.filter((id) => id !== first[0])]);
  });
});
