// The cost-aware cache: the entry cheapest to make again per byte leaves first, a read renews an entry, the floor ages
// what is no longer read (however often it was read before), equal priorities leave least recently used first, and
// the bound holds through any order of calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CostAwareCache } from '../../src/lib/cost-aware-cache.js';

/** Values are their own size in bytes. */
const cacheOf = (maxSize: number) => new CostAwareCache<number>({ maxSize, sizeOf: (value) => value });
const keys = (cache: CostAwareCache<number>, all: readonly string[]) =>
  all.filter((key) => cache.peek(key) !== undefined);

describe('CostAwareCache', () => {
  it('lets go of the cheapest per byte first, not the least recent', () => {
    const cache = cacheOf(300);
    cache.set('costly', 100, 50);
    cache.set('cheap-1', 100, 1);
    cache.set('cheap-2', 100, 1);
    // Full: the next entry pushes out the cheapest per byte, then the older of two equal ones.
    cache.set('cheap-3', 100, 1);
    expect(keys(cache, ['costly', 'cheap-1', 'cheap-2', 'cheap-3'])).toEqual(['costly', 'cheap-2', 'cheap-3']);
    cache.set('cheap-4', 100, 1);
    expect(keys(cache, ['costly', 'cheap-2', 'cheap-3', 'cheap-4'])).toEqual(['costly', 'cheap-3', 'cheap-4']);
    // Per byte: a large entry of the same cost leaves before a small one.
    const sized = cacheOf(300);
    sized.set('small', 100, 10);
    sized.set('large', 200, 10);
    sized.set('next', 100, 10);
    expect(keys(sized, ['small', 'large', 'next'])).toEqual(['small', 'next']);
    expect(sized.bytes).toBe(200);
  });

  it('renews an entry at each read: of two alike, the one read since leaves last', () => {
    const cache = cacheOf(200);
    cache.set('read', 100, 1);
    cache.set('unread', 100, 1);
    cache.get('read');
    cache.get('read');
    cache.set('new', 100, 1);
    expect(keys(cache, ['read', 'unread', 'new'])).toEqual(['read', 'new']);
    // peek does not count.
    const peeked = cacheOf(200);
    peeked.set('a', 100, 1);
    peeked.set('b', 100, 1);
    peeked.peek('a');
    peeked.set('c', 100, 1);
    expect(keys(peeked, ['a', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('ages what is no longer read: the floor rises with each entry let go, until a costly entry leaves too', () => {
    // Sizes and costs whose quotients are exact in binary: 4/128 for the costly entry, 1/128 for each cheap one.
    const cache = cacheOf(256);
    cache.set('costly', 128, 4);
    let evictedAt = -1;
    for (let i = 0; i < 20; i++) {
      cache.set(`cheap-${i}`, 128, 1);
      if (evictedAt < 0 && cache.peek('costly') === undefined) evictedAt = i;
    }
    // Every second cheap entry let go raises the floor by 1/128; once a new one is set at 4/128 (the floor at 3/128),
    // the unread costly entry is the oldest of the least and leaves: when the 8th cheap entry is set.
    expect(evictedAt).toBe(7);
  });

  it('keeps cost and priority when a kept key is set again without a cost, and starts over with one', () => {
    const cache = new CostAwareCache<{ bytes: number }>({
      maxSize: 400,
      sizeOf: (value) => value.bytes,
      weightOf: () => 100,
    });
    cache.set('a', { bytes: 100 }, 10);
    cache.get('a');
    // A form added: more bytes held, the same standing (weighed by its own bytes).
    cache.set('a', { bytes: 250 });
    cache.set('b', { bytes: 100 }, 15);
    cache.set('c', { bytes: 100 }, 1);
    // a: 10 / 100 = 0.1 (read, and a form added, at floor 0); b 0.15; c 0.01 leaves.
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([{ bytes: 250 }, { bytes: 100 }, undefined]);
    expect(cache.bytes).toBe(350);
    // Set again with a cost: its priority from the floor (0.01) and that cost, 0.02; d's 0.03.
    cache.set('a', { bytes: 250 }, 1);
    cache.set('d', { bytes: 100 }, 2);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('d')]).toEqual([undefined, { bytes: 100 }, { bytes: 100 }]);
  });

  it('lets an entry read thousands of times in a past burst age out as a least recently used one', () => {
    const cache = cacheOf(300);
    cache.set('burst', 100, 1);
    for (let i = 0; i < 5000; i++) cache.get('burst');
    cache.set('next-1', 100, 1);
    cache.set('next-2', 100, 1);
    expect(cache.peek('burst')).toBe(100);
    cache.set('next-3', 100, 1);
    expect(keys(cache, ['burst', 'next-1', 'next-2', 'next-3'])).toEqual(['next-1', 'next-2', 'next-3']);
  });

  it('keeps nothing larger than its bound, and clear empties it', () => {
    const cache = cacheOf(100);
    cache.set('a', 50, 1);
    cache.set('huge', 101, 1000);
    expect([cache.peek('a'), cache.peek('huge'), cache.bytes]).toEqual([50, undefined, 50]);
    cache.set('a', 200, 1);
    expect([cache.peek('a'), cache.bytes, cache.size]).toEqual([undefined, 0, 0]);
    cache.set('b', 60, 1);
    cache.delete('b');
    expect([cache.peek('b'), cache.bytes]).toEqual([undefined, 0]);
    cache.set('c', 60, 1);
    cache.clear();
    expect([cache.peek('c'), cache.bytes, cache.size]).toEqual([undefined, 0, 0]);
  });

  it('holds its bound and its count of bytes through any order of calls, and evicts the least priority', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.integer({ min: 0, max: 30 }),
        size: fc.integer({ min: 1, max: 120 }),
        cost: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const cache = cacheOf(500);
        const held = new Map<string, number>();
        for (const step of ops) {
          const key = String(step.key);
          if (step.kind === 'get') expect(cache.get(key)).toBe(held.get(key));
          else if (step.kind === 'delete') {
            cache.delete(key);
            held.delete(key);
          } else {
            cache.set(key, step.size, step.cost);
            held.set(key, step.size);
            // Whatever left is gone from the model too; nothing not set is there.
            for (const known of [...held.keys()]) if (cache.peek(known) === undefined) held.delete(known);
          }
          expect(cache.bytes).toBeLessThanOrEqual(500);
          expect(cache.bytes).toBe([...held.values()].reduce((sum, size) => sum + size, 0));
          expect(cache.size).toBe(held.size);
        }
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
