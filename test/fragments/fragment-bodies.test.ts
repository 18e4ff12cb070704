// A chunk's fragments encoded into one block: each body's bytes exactly its text's UTF-8, however small the room guessed.
import { describe, expect, it } from 'vitest';
import { bytesToMove, FragmentEncoder } from '../../src/rendering/fragment-bodies.js';

const texts = ['{"id":"a"}', 'é😀 ascii after', '', '漢字'.repeat(500), `x${'\u0000'}y`, '\ud83d lone'];

describe('FragmentEncoder', () => {
  for (const expected of [0, 1, 7, 1 << 16]) {
    it(`gives each body its text's UTF-8 bytes from room for ${expected} bytes`, () => {
      const encoder = new FragmentEncoder(expected);
      texts.forEach((text, i) => encoder.add({ id: `p${i}`, text, refs: i === 0 ? ['p:x'] : undefined }));
      const { bytes, fragments } = encoder.finish();
      let start = 0;
      fragments.forEach(({ id, refs, end }, i) => {
        expect(id).toBe(`p${i}`);
        expect(refs).toEqual(i === 0 ? ['p:x'] : undefined);
        expect(Buffer.from(bytes.subarray(start, end))).toEqual(Buffer.from(texts[i] ?? '', 'utf8'));
        start = end;
      });
      expect(bytes.byteLength).toBe(start);
      expect(bytesToMove({ bytes, fragments })).toEqual([bytes.buffer]);
    });
  }
});
