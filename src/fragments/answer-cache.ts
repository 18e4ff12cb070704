// Rendered answers kept in memory per process, bounded in bytes, and dropped the moment the store changes:
// this process's own commits at once (the write runner tells it), other processes' (a CLI import, a second server) at the next change
// check, made at most once a millisecond (SQLite's data_version, PostgreSQL's store_state.version).
import { LRUCache } from 'lru-cache';
import type { Store } from '../db/store.js';
import { compressForCache, type ContentCoding } from '../lib/content-codings.js';
import { createSignal } from '../lib/signal.js';
import type { Answer } from './splice.js';

export interface CachedAnswer extends Answer {
  /** For answers that time alone changes (upcoming, past): good from `from` until just before `until` (epoch ms). */
  from?: number;
  until?: number;
}

/** A kept answer with the compressed forms asked of it so far (a promise while one is being made). */
interface Entry extends CachedAnswer {
  forms: Partial<Record<ContentCoding, Buffer | Promise<Buffer>>>;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Compressed forms made of kept answers, by coding: each answer is compressed at most once per coding. */
  compressed: Record<ContentCoding, number>;
}

export interface AnswerCache {
  /** Brings the cache up to date with the store; every read calls it first. */
  sync(): void | Promise<void>;
  get(key: string, now: number): CachedAnswer | undefined;
  /** As `get`, but a miss is not counted: the caller goes on to `get` on its ordinary path. */
  peek(key: string, now: number): CachedAnswer | undefined;
  /**
   * How many changes have been seen. Whatever was read before a change must not be kept after it: callers
   * note the generation before reading and pass it to `set`, which keeps nothing from an older one.
   */
  generation(): number;
  set(key: string, answer: CachedAnswer, generation: number): void;
  /**
   * `body` in `coding` when `body` is the bytes of an answer the cache holds: made on the first ask and kept beside
   * them (counted in the cache's bytes), so that every later ask is answered with the same bytes. Undefined for
   * bytes it does not hold (an answer made for one request, or one evicted meanwhile).
   */
  compressed(body: Buffer, coding: ContentCoding): Buffer | Promise<Buffer> | undefined;
  /** Called on every change seen, with the cache already emptied (other per-process caches follow it). */
  onChange(listener: () => void): void;
  readonly stats: CacheStats;
}

const CHECK_EVERY_MS = 1;

/** `onLocalCommit` subscribes to this process's commits (the write runner's signal). */
export function createAnswerCache(
  store: Store,
  maxBytes: number,
  onLocalCommit: (listener: () => void) => unknown,
): AnswerCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (entry, key) => {
      let bytes = entry.body.length + entry.etag.length + key.length + 64;
      for (const form of Object.values(entry.forms)) if (Buffer.isBuffer(form)) bytes += form.length;
      return bytes;
    },
  });
  // Which key holds an answer's bytes: the compressed forms are asked for by the bytes about to be sent.
  const keys = new WeakMap<Buffer, string>();
  const changes = createSignal<void>();
  const stats: CacheStats = { hits: 0, misses: 0, compressed: { br: 0, gzip: 0 } };
  let seenMark: number | null = null;
  let checkedAt = -Infinity;
  let checking: Promise<void> | null = null;
  let generation = 0;

  const changed = () => {
    generation++;
    entries.clear();
    changes.emit();
  };
  const see = (mark: number) => {
    if (seenMark !== null && mark !== seenMark) changed();
    seenMark = mark;
  };
  // A connection does not see its own commits in SQLite's data_version: this process's are told at once.
  onLocalCommit(changed);

  const fresh = (key: string, now: number): CachedAnswer | undefined => {
    const answer = maxBytes > 0 ? entries.get(key) : undefined;
    return answer && (answer.from === undefined || (now >= answer.from && now < (answer.until ?? Infinity)))
      ? answer
      : undefined;
  };

  return {
    sync() {
      // A check in flight is every reader's to wait for: what it finds may empty the cache.
      if (checking) return checking;
      const now = performance.now();
      if (now - checkedAt < CHECK_EVERY_MS) return;
      checkedAt = now;
      const mark = store.hot.changeMark();
      if (typeof mark === 'number') return see(mark);
      checking = mark.then(see).finally(() => {
        checking = null;
      });
      return checking;
    },
    get(key, now) {
      const answer = fresh(key, now);
      if (answer) stats.hits++;
      else stats.misses++;
      return answer;
    },
    peek(key, now) {
      const answer = fresh(key, now);
      if (answer) stats.hits++;
      return answer;
    },
    generation: () => generation,
    set(key, answer, readAt) {
      if (maxBytes <= 0 || readAt !== generation) return;
      entries.set(key, { ...answer, forms: {} });
      keys.set(answer.body, key);
    },
    compressed(body, coding) {
      const key = keys.get(body);
      const entry = key === undefined ? undefined : entries.peek(key);
      if (key === undefined || entry?.body !== body) return undefined;
      const kept = entry.forms[coding];
      if (kept) return kept;
      stats.compressed[coding]++;
      const made = compressForCache(body, coding).then(
        (form) => {
          // Set again as a new entry, for the cache to count the form's bytes; unless changed or evicted meanwhile.
          const now = entries.peek(key);
          if (now?.body === body) entries.set(key, { ...now, forms: { ...now.forms, [coding]: form } });
          return form;
        },
        (error: unknown) => {
          // Not kept: the next ask tries again.
          if (entry.forms[coding] === made) delete entry.forms[coding];
          throw error;
        },
      );
      entry.forms[coding] = made;
      return made;
    },
    onChange(listener) {
      changes.subscribe(listener);
    },
    stats,
  };
}
