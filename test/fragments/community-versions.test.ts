// ETags tell a community nothing of another's writes (issue 35, item 5): the versions they are made of are counted per
// community, so two communities with the same history answer the same ETags whatever a third one writes meanwhile,
// and on PostgreSQL a writer in one community never waits for a writer in another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshFragments } from '../../src/rendering/fragment-refresh.js';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

let t: TestApp;
/** The community watched, its twin given the same history, and a busy one writing between. */
const communities = { watched: '', twin: '', busy: '' };
const writers = { watched: '', twin: '', busy: '' };

beforeAll(async () => {
  t = await createTestApp();
  // In this order, so that the busy community's import falls between the two the others make.
  for (const name of ['watched', 'busy', 'twin'] as const) {
    communities[name] = await t.community(`versions-${name}`);
    await t.importRecords(communities[name], baseRecords);
    writers[name] = await t.token(communities[name], ['read', 'events:write']);
  }
});
afterAll(() => t.close());

const path = '/admin/v0/calendar_events';
const byId = `${path}/evdstcross01`;
const list = `${path}?per_page=100`;

const write = (method: 'POST' | 'PATCH', url: string, token: string, body: object, headers: object = {}) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });

/** The ETags of the by-id answer and of the list. */
async function etags(token: string): Promise<{ one: string; list: string }> {
  const [one, all] = [await t.get(byId, token), await t.get(list, token)];
  expect([one.statusCode, all.statusCode]).toEqual([200, 200]);
  return { one: String(one.headers['etag']), list: String(all.headers['etag']) };
}

const created = (i: number) => ({
  title: `Busy evening ${i}`,
  start_date: '2026-04-01T18:00:00Z',
  end_date: '2026-04-01T20:00:00Z',
  hosts: ['ada@example.com'],
  description: { text: 'Elsewhere' },
});

describe('versions per community', () => {
  it("keeps a community's ETags free of another community's writes", async () => {
    // The event, its host, its speaker and its tag, all rendered by the community's one import.
    const first = { one: '"e1.1.1.1"', list: expect.stringMatching(/^"l[\w-]{27}"$/) };
    expect(await etags(writers.watched)).toEqual(first);
    const watched = await etags(writers.watched);
    expect(await etags(writers.twin)).toEqual(watched);

    for (let i = 0; i < 25; i++) expect((await write('POST', path, writers.busy, created(i))).statusCode).toBe(201);
    expect(await etags(writers.watched)).toEqual(watched);

    // The watched community's next change takes its next version, 2, not one past the busy community's 26 writes.
    const change = { location: 'Hangar 2' };
    const changed = await write('PATCH', byId, writers.watched, change, { 'if-match': watched.one });
    expect([changed.statusCode, changed.headers['etag']]).toEqual([200, '"e2.1.1.1"']);
    const after = await etags(writers.watched);
    expect(after.one).toBe('"e2.1.1.1"');
    expect(after.list).not.toBe(watched.list);

    // The twin, given the same change with no writes of others between, answers exactly the same.
    expect((await write('PATCH', byId, writers.twin, change, { 'if-match': watched.one })).statusCode).toBe(200);
    expect(await etags(writers.twin)).toEqual(after);

    // And the busy community's versions are its own too: its import, then its 25 creates.
    const busy = await t.get(list, writers.busy);
    expect((await t.get(byId, writers.busy)).headers['etag']).toBe('"e1.1.1.1"');
    const newest = (busy.json().data.records as { id: string; title: string }[]).find(
      (e) => e.title === 'Busy evening 24',
    );
    const last = await t.get(`${path}/${newest?.id}`, writers.busy);
    expect(last.headers['etag']).toBe(`"e${(26).toString(36)}.1"`);
  });

  // SQLite has one writer at a time; on PostgreSQL, writers of different communities used to queue on one row.
  it.runIf(testDatabaseUrl !== null)(
    "lets a community's writer go on while another community's change is still open",
    async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let versionTaken = () => {};
      const taken = new Promise<void>((resolve) => {
        versionTaken = resolve;
      });
      const open = t.testStore.store.db.transaction().execute(async (trx) => {
        await refreshFragments(trx, communities.busy, { events: ['evberlin0001'] });
        versionTaken();
        await held;
      });
      await taken;
      const before = await etags(writers.watched);
      const patch = write('PATCH', byId, writers.watched, { location: 'Hangar 3' }, { 'if-match': before.one });
      const outcome = await Promise.race([
        patch.then((res) => res.statusCode),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000)),
      ]);
      release();
      await open;
      expect(outcome).toBe(200);
      expect((await patch).headers['etag']).toBe('"e3.1.1.1"');
    },
  );
});
