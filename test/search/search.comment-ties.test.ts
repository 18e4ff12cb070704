// Comment search over a long run of equal scores (the same words in many comments, as in a Slack channel): every page
// in the full order (score, then newer, then id), none repeated or skipped, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { datedPost } from '../helpers/dated-post.js';
import { fullOrder, searchPage } from '../helpers/search-pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let token: string;

// 150 comments of one score, on five dates (ties of date broken by id), and 4 that say "harbor" twice in as many
// words: those rank first.
const TIED = 150;
const comment = (n: number, body: string) => ({
  kind: 'comment',
  id: `tiecmt${String(n).padStart(6, '0')}`,
  created_at: `2025-03-0${((n * 7) % 5) + 1}T10:00:00Z`,
  parent_post_id: 'tieparent001',
  author_profile_id: profileIds.ada,
  body_plaintext: body,
});
const tied = Array.from({ length: TIED }, (_, i) => comment(i + 1, 'The harbor lantern is lit'));
const better = Array.from({ length: 4 }, (_, i) => comment(TIED + 1 + i, 'The harbor harbor lantern lit'));

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('comment-ties', [
    ...baseRecords,
    datedPost('tieparent001', 'Harbor', 'The parent of every comment', 1),
    ...tied,
    ...better,
  ]));
});
afterAll(() => t.close());

const page = (q: string, n: number, perPage: number) => searchPage(t, token, 'comment', q, n, perPage);

describe('comment search over a long run of equal scores', () => {
  const expected = [...fullOrder(better), ...fullOrder(tied)];

  it('pages through the run in full order, each comment once', async () => {
    const seen: string[] = [];
    for (let p = 0; p * 10 < expected.length; p++) {
      const { ids, total } = await page('lantern harbor', p, 10);
      expect(total).toBe(TIED + better.length);
      seen.push(...ids);
    }
    expect(seen).toEqual(expected);
  });

  it('answers a window that starts inside the run and one past its end', async () => {
    expect((await page('harbor', 3, 7)).ids).toEqual(expected.slice(21, 28));
    expect((await page('harbor', 0, 100)).ids).toEqual(expected.slice(0, 100));
    expect(await page('harbor', 2, 100)).toEqual({ ids: [], total: expected.length });
  });

  it('orders a run of ties alone (no better match) by date, then id', async () => {
    expect((await page('"lantern is lit"', 1, 25)).ids).toEqual(fullOrder(tied).slice(25, 50));
  });
});
