// The answer cache's compressed forms: made once per coding (at once, or on the thread pool when large), kept in
// Buffers of their own and counted in the cache's bound, so that a form can push older answers out; bytes the
// cache does not hold get none.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerCache } from '../../src/fragments/answer-cache.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await createTestStore();
});
afterAll(() => testStore.cleanup());

/** Random bytes do not compress: a form is about as large as its answer. */
const answer = (etag: string) => ({ body: randomBytes(2000), etag });
/** What the cache counts for an entry without forms: body, ETag, key and 64 bytes of overhead. */
const entryBytes = 2000 + 3 + 1 + 64;

describe('compressed forms in the answer cache', () => {
  it('counts a form in the bound: the form pushes the least recent answer out', async () => {
    const cache = createAnswerCache(testStore.store, 2 * entryBytes + 1000, () => {});
    const a = answer('"a"');
    const b = answer('"b"');
    cache.set('a', a, cache.generation());
    cache.set('b', b, cache.generation());
    expect([cache.peek('a', 0)?.body, cache.peek('b', 0)?.body]).toEqual([a.body, b.body]);

    // A small answer is compressed at once.
    const form = cache.compressed(a.body, 'gzip');
    if (!Buffer.isBuffer(form)) return expect.unreachable();
    expect(gunzipSync(form).equals(a.body)).toBe(true);
    // A's form took B's room.
    expect([cache.peek('a', 0)?.body, cache.peek('b', 0)]).toEqual([a.body, undefined]);
    expect(cache.compressed(b.body, 'gzip')).toBeUndefined();
    // Kept: the next ask is answered at once with the same Buffer, not compressed again.
    expect(cache.compressed(a.body, 'gzip')).toBe(form);
    expect(cache.stats.compressed).toEqual({ br: 0, gzip: 1 });
  });

  it('keeps each form in a Buffer of its own, not a slice of a shared pool', async () => {
    const cache = createAnswerCache(testStore.store, 1_000_000, () => {});
    const small = { body: Buffer.from(JSON.stringify({ success: true, data: 'x'.repeat(3000) })), etag: '"s"' };
    cache.set('s', small, cache.generation());
    for (const coding of ['br', 'gzip'] as const) {
      const form = (await cache.compressed(small.body, coding)) ?? Buffer.alloc(0);
      expect(form.length).toBeLessThan(100);
      expect([form.byteOffset, form.buffer.byteLength]).toEqual([0, form.length]);
    }
  });

  it('makes a large form once on the thread pool for asks that meet, and none for bytes it does not hold', async () => {
    const cache = createAnswerCache(testStore.store, 1_000_000, () => {});
    // Over 64 KB: compressed off the event loop.
    const kept = { body: randomBytes(70_000), etag: '"k"' };
    cache.set('k', kept, cache.generation());
    const [first, second] = [cache.compressed(kept.body, 'br'), cache.compressed(kept.body, 'br')];
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    const form = await first;
    expect(cache.compressed(kept.body, 'br')).toBe(form);
    expect(cache.stats.compressed).toEqual({ br: 1, gzip: 0 });
    expect(cache.compressed(Buffer.from(kept.body), 'br')).toBeUndefined();

    // An answer read before a change is not kept, and gets no form.
    const stale = answer('"o"');
    cache.set('o', stale, cache.generation() - 1);
    expect(cache.compressed(stale.body, 'br')).toBeUndefined();
  });

  it('keeps an answer slow to make through a flood of quick ones, and lets go of the least recent of the quick', () => {
    const cache = createAnswerCache(testStore.store, 5 * entryBytes, () => {});
    const ranked = answer('"r"');
    // A search ranked in 40 ms, then by-id answers spliced in 50 µs each, ten times what the bound holds.
    cache.set('r', ranked, cache.generation(), 40);
    const quick = Array.from({ length: 50 }, () => answer('"q"'));
    quick.forEach((each, i) => cache.set(String(i % 10), each, cache.generation(), 0.05));
    expect(cache.peek('r', 0)?.body).toBe(ranked.body);
    // The four kept besides it are the last four set.
    expect([...Array(10).keys()].filter((i) => cache.peek(String(i), 0) !== undefined)).toEqual([6, 7, 8, 9]);
    expect(cache.peek('9', 0)?.body).toBe(quick[49]?.body);
  });
});
