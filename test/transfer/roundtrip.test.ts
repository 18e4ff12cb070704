// Export, then import into an empty community: the API answers exactly as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRecords } from '../../src/transfer/export.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords } from '../fixtures/community.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every GET answer a client could ask of the community's events (and, later, posts). */
async function answers(token: string): Promise<unknown[]> {
  const paths = [
    '/admin/v0/calendar_events?per_page=100',
    '/admin/v0/calendar_events?status=draft',
    '/admin/v0/calendar_events?time_filter=past',
  ];
  const out: unknown[] = [];
  for (const path of paths) out.push((await t.get(path, token)).json());
  const events = (out[0] as { data: { records: { id: string }[] } }).data.records;
  for (const { id } of events) out.push((await t.get(`/admin/v0/calendar_events/${id}`, token)).json());
  return out;
}

describe('export and import', () => {
  it('reproduces identical API answers in an empty community', async () => {
    const source = await t.community('source');
    await t.importRecords(source, baseRecords);
    const exported: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, source)) exported.push(record);
    expect(exported.map((r) => (r as { kind: string }).kind)).toEqual([
      'feed', 'feed', 'feed', 'feed', 'profile', 'profile', 'tag', 'tag',
      'calendar_event', 'calendar_event', 'calendar_event', 'calendar_event', 'calendar_event', 'calendar_event', 'calendar_event',
    ]);

    const copy = await t.community('copy');
    await t.importRecords(copy, exported);
    const [before, after] = [await answers(await t.token(source)), await answers(await t.token(copy))];
    expect(after).toEqual(before);
    expect(before).toHaveLength(9);

    // Exporting the copy gives the same file again.
    const again: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, copy)) again.push(record);
    expect(again).toEqual(exported);
  });
});
