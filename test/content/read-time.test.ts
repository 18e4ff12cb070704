import { describe, expect, it } from 'vitest';
import { readTimeMinutes } from '../../src/content/rich-text.js';

const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

describe('readTimeMinutes', () => {
  it('is at least one minute, even for no words', () => {
    expect(readTimeMinutes('')).toEqual(1);
    expect(readTimeMinutes(' \n\t ')).toEqual(1);
  });

  it('rounds words / 200 up', () => {
    expect(readTimeMinutes(words(1))).toEqual(1);
    expect(readTimeMinutes(words(200))).toEqual(1);
    expect(readTimeMinutes(words(201))).toEqual(2);
    expect(readTimeMinutes(words(400))).toEqual(2);
    expect(readTimeMinutes(words(401))).toEqual(3);
  });

  it('counts runs of non-whitespace, whatever separates them', () => {
    const text = Array.from({ length: 201 }, (_, index) => (index % 2 ? 'a' : 'b—c')).join(' \n\t  ');
    expect(readTimeMinutes(`  ${text}\n`)).toEqual(2);
  });
});
