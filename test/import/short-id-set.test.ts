// The import's compact id set answers exactly as a Set of the same strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShortIdSet } from '../../src/lib/short-id-set.js';

const shortId = fc.stringMatching(/^[a-z0-9]{12}$/);
// Near misses stay exact too: a wrong length, an upper-case letter, a character just outside [a-z0-9].
const otherId = fc.oneof(
  fc.stringMatching(/^[a-z0-9]{11}$/),
  fc.stringMatching(/^[a-z0-9]{5}[A-Z/:`{][a-z0-9]{6}$/),
  fc.string({ maxLength: 20 }),
);

describe('ShortIdSet', () => {
  it('holds the ids a Set holds, through every growth', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 4, arbitrary: shortId }, otherId), { maxLength: 3000 }), (ids) => {
        const set = new ShortIdSet();
        const plain = new Set<string>();
        for (const id of ids) {
          set.add(id);
          plain.add(id);
          expect(set.has(id)).toBe(true);
        }
        expect(set.size).toBe(plain.size);
        expect([...set].sort()).toEqual([...plain].sort());
        for (const id of ids) expect(set.has(`${id.slice(0, -1)}-`)).toBe(plain.has(`${id.slice(0, -1)}-`));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the extremes of the alphabet and tells near ids apart', () => {
    const set = new ShortIdSet().add('000000000000').add('zzzzzzzzzzzz').add('zzzzzz000000');
    expect([...set].sort()).toEqual(['000000000000', 'zzzzzz000000', 'zzzzzzzzzzzz']);
    expect(set.has('000000000001')).toBe(false);
    expect(set.has('ZZZZZZZZZZZZ')).toBe(false);
    expect(set.has('00000000000')).toBe(false);
    expect(set.size).toBe(3);
  });

  it('counts an id once however often it is added', () => {
    const set = new ShortIdSet();
    for (let i = 0; i < 5000; i++) set.add(`post${String(i % 1000).padStart(8, '0')}`);
    expect(set.size).toBe(1000);
    expect(set.has('post00000999')).toBe(true);
    expect(set.has('post00001000')).toBe(false);
  });
});
