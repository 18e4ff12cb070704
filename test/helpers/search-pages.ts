// Search tests over runs of equal scores: one page of ids with its total, and the full order that breaks ties (newer
// first, then id descending).
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export async function searchPage(
  t: TestApp,
  token: string,
  type: 'post' | 'comment',
  q: string,
  page: number,
  perPage: number,
): Promise<{ ids: string[]; total: number }> {
  const res = await t.get(
    `/admin/v0/search?type=${type}&q=${encodeURIComponent(q)}&page=${page}&per_page=${perPage}`,
    token,
  );
  expect(res.statusCode, res.body).toBe(200);
  const { data } = res.json();
  return { ids: data.records.map((record: { id: string }) => record.id), total: data.total_records };
}

/** The ids of records of one score in search's order: newer first, then id descending. */
export const fullOrder = (records: { id: string; created_at: string }[]): string[] =>
  [...records]
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
    .map((record) => record.id);
