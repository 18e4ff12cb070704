// Post search of `a OR b` over long runs of equal scores (the same words in many posts, as in a Slack channel): every
// page in the full order (score, then newer, then id), none repeated or skipped, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { datedPost } from '../helpers/dated-post.js';
import { fullOrder, searchPage } from '../helpers/search-pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let token: string;

// 120 posts say "harbor" and 120 "beacon" in bodies of one length under one title, so that each alternative alone
// scores one value, and both the same (as many posts hold each word); 5 say both and rank first. Each run is longer
// than the first read of a ranking (its window's end and 32 more). Those 5 hold no `lantern`: PostgreSQL ranks a
// phrase by its words wherever they stand, and the phrase test below would then tie them with the harbor posts.
const TIED = 120;
const post = (prefix: string, n: number, body: string) =>
  datedPost(`${prefix}${String(n).padStart(6, '0')}`, 'Evening notes', body, n);
const harbor = Array.from({ length: TIED }, (_, i) => post('harbor', i + 1, 'The harbor lantern is lit'));
const beacon = Array.from({ length: TIED }, (_, i) => post('beacon', i + 1, 'The beacon lantern is lit'));
const both = Array.from({ length: 5 }, (_, i) => post('orboth', i + 1, 'The harbor beacon lamp lit'));

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('or-ties', [...baseRecords, ...harbor, ...beacon, ...both]));
});
afterAll(() => t.close());

const page = (q: string, n: number, perPage: number) => searchPage(t, token, 'post', q, n, perPage);

describe('`a OR b` over long runs of equal scores', () => {
  const expected = [...fullOrder(both), ...fullOrder([...harbor, ...beacon])];

  it('pages through both runs in full order, each post once', async () => {
    const seen: string[] = [];
    for (let p = 0; p * 25 < expected.length; p++) {
      const { ids, total } = await page('harbor OR beacon', p, 25);
      expect(total).toBe(2 * TIED + both.length);
      seen.push(...ids);
    }
    expect(seen).toEqual(expected);
  });

  it('answers a window deep inside the runs and one past their end', async () => {
    expect((await page('beacon OR harbor', 4, 40)).ids).toEqual(expected.slice(160, 200));
    expect((await page('harbor OR beacon', 0, 100)).ids).toEqual(expected.slice(0, 100));
    expect(await page('harbor OR beacon', 3, 100)).toEqual({ ids: [], total: expected.length });
  });

  it('ranks a phrase alternative the same way', async () => {
    // The harbor posts hold the phrase and the word; the five of both words hold the word only.
    const phrase = [...fullOrder(harbor), ...fullOrder(both)];
    const { ids, total } = await page('"harbor lantern" OR harbor', 2, 30);
    expect(total).toBe(TIED + both.length);
    expect(ids).toEqual(phrase.slice(60, 90));
    expect((await page('"harbor lantern" OR harbor', 4, 30)).ids).toEqual(phrase.slice(120, 125));
  });
});
