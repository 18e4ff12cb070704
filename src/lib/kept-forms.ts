// Compressed forms of the answers a bounded cache keeps: each made the first time it is asked for, kept beside its
// answer's bytes and counted in the cache's bound, so that a kept answer is compressed at most once per coding.
import { compressForCache, type ContentCoding } from './content-codings.js';

/** The forms asked of one answer so far (a promise while one is being made). */
export type Forms = Partial<Record<ContentCoding, Buffer | Promise<Buffer>>>;

export interface WithForms {
  body: Buffer;
  forms: Forms;
}

/**
 * The bytes in a Buffer of their own, for keeping. zlib hands back a small result as a slice of a larger one (its
 * 16 KB output chunk), Buffer.from a short text one of Node's 8 KB pool, and a kept slice keeps all of it alive:
 * the cache would hold far more than it counts.
 */
export function own(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** The bytes an entry's finished forms hold, for its cache's size calculation. */
export function formBytes(forms: Forms): number {
  let bytes = 0;
  for (const form of Object.values(forms)) if (Buffer.isBuffer(form)) bytes += form.length;
  return bytes;
}

export interface KeptForms {
  /** Notes that `key` holds `body`: the forms are asked for by the bytes about to be sent. */
  keep(key: string, body: Buffer): void;
  /**
   * `body` in `coding` when `body` is the bytes of an entry the cache holds: made on the first ask (a large one on
   * the thread pool: a promise, which asks meanwhile share) and set into the cache again with the entry (so its bound
   * counts it), every later ask answered with the same bytes. Undefined for bytes it does not hold (an answer made for
   * one request, or one evicted or dropped by a change meanwhile).
   */
  compressed(body: Buffer, coding: ContentCoding): Buffer | Promise<Buffer> | undefined;
}

/** The cache the forms are kept in: `set` again under a kept key keeps the entry's standing (its cost and priority). */
export interface FormsHolder<V> {
  peek(key: string): V | undefined;
  set(key: string, value: V): void;
}

/** `made` counts the forms made, by coding. */
export function keptForms<V extends WithForms>(
  entries: FormsHolder<V>,
  made: Record<ContentCoding, number>,
): KeptForms {
  const keys = new WeakMap<Buffer, string>();
  return {
    keep(key, body) {
      keys.set(body, key);
    },
    compressed(body, coding) {
      const key = keys.get(body);
      const entry = key === undefined ? undefined : entries.peek(key);
      if (key === undefined || entry?.body !== body) return undefined;
      const kept = entry.forms[coding];
      if (kept) return kept;
      made[coding]++;
      // Set again as a new entry, for the cache to count the form's bytes; unless changed or evicted meanwhile.
      const keepForm = (compressed: Buffer): Buffer => {
        const form = own(compressed);
        const now = entries.peek(key);
        if (now?.body === body) entries.set(key, { ...now, forms: { ...now.forms, [coding]: form } });
        return form;
      };
      const result = compressForCache(body, coding);
      if (Buffer.isBuffer(result)) return keepForm(result);
      const making = result.then(keepForm, (error: unknown) => {
        // Not kept: the next ask tries again.
        if (entry.forms[coding] === making) delete entry.forms[coding];
        throw error;
      });
      entry.forms[coding] = making;
      return making;
    },
  };
}
