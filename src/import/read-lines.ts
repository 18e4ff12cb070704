// NDJSON bytes into lines, block by block, split where Node's readline splits them (\n, \r\n, a lone \r).
const LF = 10;
const CR = 13;

/**
 * Splits on the bytes and decodes each line alone: decoding a whole block made one two-byte string of it as soon
 * as one character was not Latin-1, and every line cut from it two-byte too (slower to split and to parse;
 * measured: bench/analysis.md, 'Figures behind the code's choices'). A line break byte never occurs inside a
 * multi-byte UTF-8 character, so no character is cut; invalid bytes read as U+FFFD, as readline reads them.
 */
export class LineSplitter {
  /** The part line after the last block's last break (a `\r` that ends it may be the first half of a `\r\n`). */
  private rest: Buffer = Buffer.alloc(0);

  /** The lines that end in this block. */
  push(block: Uint8Array | string): string[] {
    const bytes =
      typeof block === 'string' ? Buffer.from(block) : Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    const text = this.rest.length > 0 ? Buffer.concat([this.rest, bytes]) : bytes;
    const lines: string[] = [];
    // The last break in the block: a \n, or a \r not at the very end (there, a \n may follow in the next block).
    let last = text.length - 1;
    while (last >= 0 && text[last] !== LF && (text[last] !== CR || last === text.length - 1)) last--;
    split(lines, text, last + 1);
    this.rest = Buffer.from(text.subarray(last + 1));
    return lines;
  }

  /** The last lines, once the input has ended (a last line without a line break included). */
  end(): string[] {
    const lines: string[] = [];
    const text = this.rest;
    this.rest = Buffer.alloc(0);
    const from = split(lines, text, text.length);
    if (from < text.length) lines.push(text.toString('utf8', from));
    return lines;
  }
}

/** The lines ended by the breaks in text[0, end); returns where the text after the last of them starts. */
function split(lines: string[], text: Buffer, end: number): number {
  let from = 0;
  let lf = text.indexOf(LF);
  let cr = text.indexOf(CR);
  while (from < end) {
    if (lf !== -1 && lf < from) lf = text.indexOf(LF, from);
    if (cr !== -1 && cr < from) cr = text.indexOf(CR, from);
    const next = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if (next === -1 || next >= end) return from;
    lines.push(text.toString('utf8', from, next));
    // \r\n is one break.
    from = next === cr && text[next + 1] === LF ? next + 2 : next + 1;
  }
  return from;
}

/** The lines of a byte (or text) stream. */
export async function* linesOf(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const splitter = new LineSplitter();
  for await (const block of input) yield* splitter.push(block);
  yield* splitter.end();
}
