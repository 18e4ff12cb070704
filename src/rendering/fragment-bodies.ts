// Rendered fragments as one block of UTF-8 bytes, each body a range of it: the import's worker encodes a chunk's
// posts into one block and hands it to the writing thread, moved rather than copied, where a string per fragment was
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
 * Encodes fragments one by one as they are rendered, each text left to die young, where a chunk's texts were
 * held until the last was rendered (megabytes that the worker's collector copied and promoted). One pass per
 * text, into room that grows when a text does not fit.
 */
export class FragmentEncoder {
  // Never a slice of a shared pool: the memory can then be transferred.
  private bytes: Uint8Array;
  private end = 0;
  private readonly fragments: EncodedFragments['fragments'] = [];

  /** `expected`: the bytes the fragments will likely take. */
  constructor(expected: number) {
    this.bytes = Buffer.allocUnsafeSlow(expected);
  }

  add({ id, text, refs }: RenderedFragment): void {
    let { read, written } = encoder.encodeInto(text, this.bytes.subarray(this.end));
    while (read < text.length) {
      // A UTF-16 unit takes at most three bytes.
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.end + text.length * 3));
      grown.set(this.bytes.subarray(0, this.end));
      this.bytes = grown;
      ({ read, written } = encoder.encodeInto(text, this.bytes.subarray(this.end)));
    }
    this.end += written;
    this.fragments.push({ id, refs, end: this.end });
  }

  finish(): EncodedFragments {
    return { bytes: this.bytes.subarray(0, this.end), fragments: this.fragments };
  }
}

/** The memory `encoded` holds, to transfer with it. */
export const bytesToMove = (encoded: EncodedFragments): ArrayBuffer[] =>
  encoded.bytes.buffer instanceof ArrayBuffer && encoded.bytes.byteOffset === 0 ? [encoded.bytes.buffer] : [];
