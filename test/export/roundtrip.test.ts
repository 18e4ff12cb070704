// Export, then import into an empty community: the API answers exactly as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRecords } from '../../src/export/export.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { feedIds } from '../../fixtures/community.js';
import { postRecords } from '../../fixtures/posts.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every GET answer a client could ask of the community: events, feeds, posts and search. */
async function answers(token: string): Promise<unknown[]> {
  const paths = [
    '/admin/v0/calendar_events?per_page=100',
    '/admin/v0/calendar_events?status=draft',
    '/admin/v0/calendar_events?time_filter=past',
    '/admin/v0/feeds/home/posts?per_page=100',
    `/admin/v0/feeds/${feedIds.general}/posts?sort=most-recent-activity&per_page=100`,
    `/admin/v0/feeds/${feedIds.archived}/posts?sort=oldest`,
    '/admin/v0/search?q=welcome&type=post&highlight=true',
    '/admin/v0/search?q=the&type=comment',
  ];
  const out: unknown[] = [];
  for (const path of paths) out.push((await t.get(path, token)).json());
  const events = (out[0] as { data: { records: { id: string }[] } }).data.records;
  for (const { id } of events) out.push((await t.get(`/admin/v0/calendar_events/${id}`, token)).json());
  const posts = (out[3] as { data: { records: { id: string }[] } }).data.records;
  for (const { id } of posts) out.push((await t.get(`/admin/v0/posts/${id}`, token)).json());
  return out;
}

describe('export and import', () => {
  it('reproduces identical API answers in an empty community', async () => {
    const source = await t.community('source');
    await t.importRecords(source, postRecords);
    const exported: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, source)) exported.push(record);
    const kinds = exported.map((r) => (r as { kind: string }).kind);
    const runs = kinds.reduce<[string, number][]>((acc, kind) => {
      const last = acc.at(-1);
      if (last?.[0] === kind) last[1]++;
      else acc.push([kind, 1]);
      return acc;
    }, []);
    expect(runs).toEqual([
      ['feed', 4],
      ['profile', 2],
      ['tag', 2],
      ['calendar_event', 7],
      ['post', 8],
      ['comment', 2],
    ]);

    const copy = await t.community('copy');
    await t.importRecords(copy, exported);
    const [before, after] = [await answers(await t.token(source)), await answers(await t.token(copy))];
    expect(after).toEqual(before);
    expect(before).toHaveLength(20);

    // Exporting the copy gives the same file again.
    const again: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, copy)) again.push(record);
    expect(again).toEqual(exported);
  });
});
