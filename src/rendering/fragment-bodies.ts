// Rendered fragments as one block of UTF-8 bytes, each body a range of it: the import's worker encodes a chunk's
// posts at once and hands the block to the writing thread, moved rather than copied, where a string per fragment was
// copied across and encoded there into a Buffer of its own (0.7 s of a 200k Slack import's writing thread).
import type { RenderedFragment } from './post-fragment.js';

export interface EncodedFragments {
  /** The bodies one after another: a view from the start of memory of its own (which may run on past it). */
  bytes: Uint8Array;
  /** Each fragment's id, refs and where its body ends in `bytes` (it starts where the one before ends). */
  fragments: { id: string; refs?: string[]; end: number }[];
}

const encoder = new TextEncoder();

/**
 * Encodes in one pass into room guessed from the texts' lengths, grown when a text does not fit, where measuring
 * every text's UTF-8 length first walked each text twice.
 */
export function encodeFragments(rendered: readonly RenderedFragment[]): EncodedFragments {
  let units = 0;
  for (const { text } of rendered) units += text.length;
  // Never a slice of a shared pool: the memory can then be transferred.
  let bytes: Uint8Array = Buffer.allocUnsafeSlow(units + (units >> 3));
  let end = 0;
  const fragments = rendered.map(({ id, text, refs }) => {
    let { read, written } = encoder.encodeInto(text, bytes.subarray(end));
    while (read < text.length) {
      // A UTF-16 unit takes at most three bytes.
      const grown = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, end + text.length * 3));
      grown.set(bytes.subarray(0, end));
      bytes = grown;
      ({ read, written } = encoder.encodeInto(text, bytes.subarray(end)));
    }
    end += written;
    return { id, refs, end };
  });
  return { bytes: bytes.subarray(0, end), fragments };
}

/** The memory `encoded` holds, to transfer with it. */
export const bytesToMove = (encoded: EncodedFragments): ArrayBuffer[] =>
  encoded.bytes.buffer instanceof ArrayBuffer && encoded.bytes.byteOffset === 0 ? [encoded.bytes.buffer] : [];
