// The import's line splitter against Node's readline: the same lines for every way of cutting the same bytes.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/import/read-lines.js';

async function readlineLines(bytes: Buffer): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from([bytes]), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

function splitterLines(bytes: Buffer, cuts: number[]): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    lines.push(...splitter.push(bytes.subarray(from, cut)));
    from = cut;
  }
  return [...lines, ...splitter.end()];
}

const texts = [
  '{"a":1}\n{"b":2}\n',
  '{"a":1}\n{"b":2}',
  'one\r\ntwo\r\n\r\nthree',
  'lone\rreturn\r',
  '\r',
  '\n\n',
  'tail\r',
  '',
  'emoji 🔥 and é\ncafé\r\nnaïve',
];

describe('LineSplitter', () => {
  for (const text of texts) {
    it(`reads ${JSON.stringify(text)} as readline does, however the blocks are cut`, async () => {
      const bytes = Buffer.from(text);
      const expected = await readlineLines(bytes);
      expect(splitterLines(bytes, [])).toEqual(expected);
      for (let cut = 0; cut <= bytes.length; cut++) expect([cut, splitterLines(bytes, [cut])]).toEqual([cut, expected]);
      // Every byte a block of its own: characters cut in the middle.
      expect(splitterLines(bytes, [...bytes.keys()].slice(1))).toEqual(expected);
    });
  }

  it('reads an invalid byte as U+FFFD', () => {
    expect(splitterLines(Buffer.from([0x61, 0xff, 0x0a, 0x62]), [])).toEqual(['a\ufffd', 'b']);
  });
});
