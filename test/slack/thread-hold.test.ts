// Thread parents held back until their last reply is read: released in the order held once the latest message read
// reaches their `latest_reply`, every one at the channel's end, and never more than 10,000 held at once.
import { describe, expect, it } from 'vitest';
import { ThreadHold, type HeldRecord } from '../../src/slack/thread-hold.js';

const held = (n: number, threadEnd: string): HeldRecord => ({
  line: `{"id":"post${n}"}`,
  entry: `general/2026-03-0${(n % 9) + 1}.json`,
  position: n,
  threadEnd,
});

describe('ThreadHold', () => {
  it('releases the parents whose last reply was read, in the order held, and the rest at the end', () => {
    const hold = new ThreadHold();
    for (const [n, end] of [
      [1, '1700000300.000100'],
      [2, '1700000100.000100'],
      [3, '1700000200.000001'],
      [4, '1700000200.000100'],
    ] as const)
      expect(hold.hold(held(n, end))).toBeUndefined();
    expect(hold.release('1700000200.0001').map((h) => h.position)).toEqual([2, 3, 4]);
    expect(hold.release('1700000200.0001')).toEqual([]);
    expect(hold.releaseAll()).toEqual([held(1, '1700000300.000100')]);
    expect(hold.releaseAll()).toEqual([]);
  });

  it('hands the oldest over early past 10,000 held', () => {
    const hold = new ThreadHold();
    for (let n = 1; n <= 10_000; n++) expect(hold.hold(held(n, '1800000000.000000'))).toBeUndefined();
    expect(hold.hold(held(10_001, '1800000000.000000'))).toEqual(held(1, '1800000000.000000'));
    expect(hold.releaseAll().map((h) => h.position)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 2));
  });
});
