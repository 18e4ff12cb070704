// Rendered fragments as one block of UTF-8 bytes, each body a range of it: the import's worker encodes a chunk's
// posts at once and hands the block to the writing thread, moved rather than copied, where a string per fragment was
// copied across and encoded there into a Buffer of its own (0.7 s of a 200k Slack import's writing thread).
import type { RenderedFragment } from './post-fragment.js';

export interface EncodedFragments {
  /** The bodies one after another. */
  bytes: Uint8Array;
  /** Each fragment's id, refs and where its body ends in `bytes` (it starts where the one before ends). */
  fragments: { id: string; refs?: string[]; end: number }[];
}

export function encodeFragments(rendered: readonly RenderedFragment[]): EncodedFragments {
  let total = 0;
  for (const { text } of rendered) total += Buffer.byteLength(text, 'utf8');
  // Memory of its own, not a slice of Node's shared pool: it can then be transferred.
  const bytes = Buffer.allocUnsafeSlow(total);
  let end = 0;
  const fragments = rendered.map(({ id, text, refs }) => {
    end += bytes.write(text, end, 'utf8');
    return { id, refs, end };
  });
  return { bytes, fragments };
}

/** The memory `encoded` holds, to transfer with it. */
export const bytesToMove = (encoded: EncodedFragments): ArrayBuffer[] =>
  encoded.bytes.buffer instanceof ArrayBuffer && encoded.bytes.byteLength === encoded.bytes.buffer.byteLength
    ? [encoded.bytes.buffer]
    : [];
