// Rendered answers kept in memory per process, bounded in bytes, the cheapest to make again per byte let go first
// (lib/cost-aware-cache.ts), and dropped the moment the store changes: this process's own commits at once (the write
// runner tells it), other processes' (a CLI import, a second server) at the next change check, made at most once a
// millisecond (SQLite's data_version, PostgreSQL's sum of the communities' fragment_version).
import { CostAwareCache } from '../lib/cost-aware-cache.js';
import type { Store } from '../db/store.js';
import type { ContentCoding } from '../lib/content-codings.js';
import { formBytes, keptForms, type KeptForms, type WithForms } from '../lib/kept-forms.js';
import { createSignal } from '../lib/signal.js';
import type { Answer } from './splice.js';

export interface CachedAnswer extends Answer {
  /** For answers that time alone changes (upcoming, past): good from `from` until just before `until` (epoch ms). */
  from?: number;
  until?: number;
}

/** A kept answer with the compressed forms asked of it so far. */
interface Entry extends CachedAnswer, WithForms {}

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
  /** Keeps `answer` unless the store changed since `generation`; `costMs` is what making it took (see CostAwareCache). */
  set(key: string, answer: CachedAnswer, generation: number, costMs?: number): void;
  /** A kept answer's brotli or gzip form (lib/kept-forms.ts), or undefined for bytes the cache does not hold. */
  compressed: KeptForms['compressed'];
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
  const ownBytes = (entry: Entry, key: string) => entry.body.length + entry.etag.length + key.length + 64;
  const entries = new CostAwareCache<Entry>({
    maxSize: Math.max(1, maxBytes),
    sizeOf: (entry, key) => ownBytes(entry, key) + formBytes(entry.forms),
    weightOf: ownBytes,
  });
  const changes = createSignal<void>();
  const stats: CacheStats = { hits: 0, misses: 0, compressed: { br: 0, gzip: 0 } };
  const forms = keptForms(entries, stats.compressed);
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
    set(key, answer, readAt, costMs = 0) {
      if (maxBytes <= 0 || readAt !== generation) return;
      entries.set(key, { ...answer, forms: {} }, costMs);
      forms.keep(key, answer.body);
    },
    compressed: forms.compressed,
    onChange(listener) {
      changes.subscribe(listener);
    },
    stats,
  };
}
