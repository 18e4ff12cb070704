// A search read page by page held against the exact ranking: the pages are that ranking once each, every page with its total.
import { expect } from 'vitest';

export type PageSearch = (q: string, offset: number, limit: number) => Promise<{ ids: string[]; total: number }>;

/** Every page of `q` at `perPage`, in order, with the totals each page said. */
async function allPages(search: PageSearch, q: string, perPage: number) {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += perPage) {
    const hits = await search(q, offset, perPage);
    totals.push(hits.total);
    ids.push(...hits.ids);
    if (offset + perPage >= hits.total) return { ids, totals };
  }
}

/** Read `perPage` at a time, `q`'s pages never repeat or skip: together they are `expected`, and each says its length. */
export async function expectPagesExact(search: PageSearch, q: string, perPage: number, expected: readonly string[]) {
  const { ids, totals } = await allPages(search, q, perPage);
  expect(new Set(totals), q).toEqual(new Set([expected.length]));
  expect(ids, q).toEqual(expected);
}
