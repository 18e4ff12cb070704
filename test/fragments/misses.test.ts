// Reads that miss the answer cache: answered by id on the early path, each request its own record or 404; on
// PostgreSQL the misses of one turn of the event loop are one statement.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../fixtures/community.js';
import { postIds, postRecords } from '../../fixtures/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { createFragmentBatches } from '../../src/fragments/fragment-batch.js';

let t: TestApp;
let token: string;
let base: string;
/** Statements run on the hot path, by SQL text (counted around the store's own `all`, which still runs). */
const statements: { text: string; params: unknown[] }[] = [];

beforeAll(async () => {
  // No answer cache: every read by id misses it.
  t = await createTestApp({ config: { answerCacheBytes: 0 } });
  ({ token } = await t.seed('misses', [...postRecords]));
  const hot = t.testStore.store.hot;
  const all = hot.all.bind(hot);
  hot.all = ((text: string, params: never[]) => {
    statements.push({ text, params });
    return all(text, params);
  }) as typeof hot.all;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/admin/v0`;
});
afterAll(() => t.close());

async function communityOf(slug: string): Promise<string> {
  const row = await t.testStore.store.db
    .selectFrom('communities')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row?.id ?? '';
}

const eventIds = events.map((event) => event.id);
const existing = [
  ...Object.values(postIds).map((id) => `posts/${id}`),
  ...eventIds.map((id) => `calendar_events/${id}`),
];
const missing = ['posts/zzzzzzzzzzzz', 'posts/000000000000', 'calendar_events/zzzzzzzzzzzz', 'posts/nope'];

async function fetchOne(path: string): Promise<{ path: string; status: number; body: string; etag: string | null }> {
  const res = await fetch(`${base}/${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { path, status: res.status, body: await res.text(), etag: res.headers.get('etag') };
}

/** The error body without its request id, which differs per request. */
const withoutRequestId = (body: string) => body.replace(/"request_id":"[^"]*"/, '"request_id":"-"');

describe('by-id reads that miss the answer cache', () => {
  it('answers each of many concurrent requests with its own record or 404, exactly as one request alone', async () => {
    const alone = new Map<string, Awaited<ReturnType<typeof fetchOne>>>();
    for (const path of [...existing, ...missing]) alone.set(path, await fetchOne(path));
    for (const path of existing) expect(alone.get(path)?.status).toBe(200);
    expect(JSON.parse(alone.get(`posts/${postIds.welcome}`)?.body ?? '{}').data.id).toBe(postIds.welcome);
    expect(JSON.parse(alone.get(`calendar_events/${eventIds[0]}`)?.body ?? '{}').data.id).toBe(eventIds[0]);
    expect(withoutRequestId(alone.get('posts/zzzzzzzzzzzz')?.body ?? '')).toBe(
      '{"success":false,"error":"Post \'zzzzzzzzzzzz\' was not found.","code":"not_found","request_id":"-"}',
    );
    expect(alone.get('posts/nope')?.status).toBe(400);

    // Every path several times, interleaved, all in flight at once.
    const burst = Array.from({ length: 6 }, (_, round) =>
      [...existing, ...missing].map((_, i, paths) => paths[(i * 7 + round) % paths.length] ?? ''),
    ).flat();
    statements.length = 0;
    const answers = await Promise.all(burst.map(fetchOne));
    for (const answer of answers) {
      const expected = alone.get(answer.path);
      expect(answer.status, answer.path).toBe(expected?.status);
      expect(answer.etag, answer.path).toBe(expected?.etag);
      expect(withoutRequestId(answer.body), answer.path).toBe(withoutRequestId(expected?.body ?? ''));
    }
    if (testDatabaseUrl) {
      // Every read by id is the one `= any` statement (how many share a batch depends on when requests arrive).
      expect(statements.filter(({ text }) => text.includes(' and id = ?'))).toEqual([]);
      const records = statements.filter(({ params }) => params[1] === 'post' || params[1] === 'event');
      expect(records.length).toBeGreaterThan(0);
      expect(records.every(({ text }) => text.includes('= any(?)'))).toBe(true);
    }
  });

  it.runIf(testDatabaseUrl)('reads the ids asked in one turn in one statement, each its own row or none', async () => {
    const batches = createFragmentBatches(t.testStore.store.hot);
    const community = await communityOf('misses');
    const asked = [...Object.values(postIds), 'zzzzzzzzzzzz', postIds.welcome, '000000000000'];
    statements.length = 0;
    const rows = await Promise.all(asked.map((id) => batches.read(community, 'post', id)));
    expect(rows.map((row) => row?.id ?? null)).toEqual(
      asked.map((id) => (id === 'zzzzzzzzzzzz' || id === '000000000000' ? null : id)),
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]?.params).toEqual([community, 'post', [...new Set(asked)]]);
  });

  it.runIf(testDatabaseUrl)(
    'keeps one statement in flight per community and kind: ids asked meanwhile go together when it answers',
    async () => {
      const batches = createFragmentBatches(t.testStore.store.hot);
      const community = await communityOf('misses');
      const [first, ...rest] = Object.values(postIds);
      statements.length = 0;
      const firstRead = batches.read(community, 'post', first ?? '');
      let firstAnswered = false;
      void firstRead.then(() => {
        firstAnswered = true;
      });
      const postStatements = () => statements.filter(({ params }) => params[1] === 'post').length;
      // Asked over the next turns; while the first statement is in flight, no other is sent.
      const later: Promise<unknown>[] = [];
      for (const id of [...rest, 'zzzzzzzzzzzz']) {
        await new Promise((resolve) => setImmediate(resolve));
        if (firstAnswered) break;
        expect(postStatements()).toBe(1);
        later.push(batches.read(community, 'post', id));
      }
      expect(later.length).toBeGreaterThan(0);
      const events = batches.read(community, 'event', eventIds[0] ?? '');
      const rows = await Promise.all([firstRead, ...later, events]);
      expect(rows.map((row) => (row as { id: string } | undefined)?.id ?? null)).toEqual([
        first,
        ...[...rest, 'zzzzzzzzzzzz'].slice(0, later.length).map((id) => (id === 'zzzzzzzzzzzz' ? null : id)),
        eventIds[0],
      ]);
      const posts = statements.filter(({ params }) => params[1] === 'post');
      // The first id alone, then every id asked while it was in flight in one statement.
      expect(posts[0]?.params).toEqual([community, 'post', [first]]);
      expect(posts).toHaveLength(2);
      expect(posts.flatMap(({ params }) => params[2] as string[])).toEqual([
        first,
        ...[...rest, 'zzzzzzzzzzzz'].slice(0, later.length),
      ]);
    },
  );

  it('answers an id holding NUL as missing, and the requests of the same turn each as alone', async () => {
    const paths = ['posts/%00', `posts/${postIds.welcome}`, 'calendar_events/%00', `calendar_events/${eventIds[0]}`];
    const alone = await Promise.all(paths.slice(1, 2).concat(paths.slice(3)).map(fetchOne));
    const together = await Promise.all(paths.map(fetchOne));
    expect(together.map((answer) => answer.status)).toEqual([400, 200, 400, 200]);
    expect([together[1]?.body, together[3]?.body].map((body) => withoutRequestId(body ?? ''))).toEqual(
      alone.map((answer) => withoutRequestId(answer.body)),
    );
  });
});
