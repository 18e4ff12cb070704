// Reads answers made of fragments: from the answer cache when it holds them, else one statement for the
// record (or the page) and the embedded profiles, feeds and tags from a per-process map of small fragments.
import { LRUCache } from 'lru-cache';
import type { FragmentsTable } from '../db/database.js';
import type { Store } from '../db/store.js';
import type { AnswerCache, CachedAnswer } from './answer-cache.js';
import { createFragmentBatches, type FragmentBatches } from './fragment-batch.js';
import {
  readFeedListings,
  readFragments,
  readOne,
  readMaxEventSpan,
  type FeedListing,
  type FragmentRead,
} from './fragment-reads.js';
import { oneAnswer, pageAnswer, type Answer, type Embedded, type PageFacts } from './splice.js';

const embedKinds: Record<string, FragmentsTable['kind']> = { p: 'profile', f: 'feed', t: 'tag' };
/**
 * Bytes of embedded fragments kept per process (a community's profiles, feeds and tags, a few hundred bytes
 * each), least recently used out first. An entry is counted with its key and the Buffer's own overhead.
 */
const EMBED_BYTES = 8 * 2 ** 20;
const ENTRY_OVERHEAD = 192;

type EmbedOf = (ref: string) => Embedded;

/** What list answers need of a community, read once per store change: its feeds and longest event. */
export interface Directory {
  feeds: Map<string, FeedListing>;
  /** Feeds Home lists (null: every feed, nothing is hidden) and their kept post total. */
  home: { feedIds: string[] | null; total: number };
  maxEventSpanMs: number;
}

export function createFragmentReader(store: Store, cache: AnswerCache) {
  const { hot } = store;
  const embeds = new LRUCache<string, Embedded>({
    maxSize: EMBED_BYTES,
    sizeCalculation: (embedded, key) => embedded.body.length + 2 * key.length + ENTRY_OVERHEAD,
  });
  const directories = new Map<string, Directory>();
  // Misses by id on a store that answers asynchronously are read in batches, one statement per turn of the event loop.
  const batches = hot.synchronous ? null : createFragmentBatches(hot);
  cache.onChange(() => {
    embeds.clear();
    directories.clear();
  });

  /**
   * The embedded fragments `rows` refer to: those this process holds, and the others loaded. Each is taken
   * into a map of this read's own, so an eviction meanwhile (another request's load) cannot leave a hole.
   * Synchronous when the store answers synchronously (SQLite), one statement per kind at a time otherwise.
   */
  function embedsFor(
    communityId: string,
    rows: readonly FragmentRead[],
    generation: number,
  ): EmbedOf | Promise<EmbedOf> {
    const found = new Map<string, Embedded>();
    const missing = new Map<string, Set<string>>();
    for (const row of rows) {
      if (row.refs === '') continue;
      for (const ref of row.refs.split(',')) {
        const key = `${communityId}|${ref}`;
        if (found.has(key)) continue;
        const held = embeds.get(key);
        if (held) {
          found.set(key, held);
          continue;
        }
        const letter = ref.slice(0, 1);
        let ids = missing.get(letter);
        if (!ids) {
          ids = new Set();
          missing.set(letter, ids);
        }
        ids.add(ref.slice(2));
      }
    }
    const take = (letter: string, loaded: readonly FragmentRead[]) => {
      for (const row of loaded) {
        const key = `${communityId}|${letter}:${row.id}`;
        const embedded = { body: row.body, version: Number(row.version) };
        found.set(key, embedded);
        if (generation === cache.generation()) embeds.set(key, embedded);
      }
    };
    const embedOf: EmbedOf = (ref) => {
      const embedded = found.get(`${communityId}|${ref}`);
      // Foreign keys make this unreachable; an answer with a hole in it would be worse than a 500.
      if (!embedded) throw new Error(`Fragment ${ref} of community '${communityId}' is referenced but missing`);
      return embedded;
    };
    const pending = [...missing];
    const next = (): EmbedOf | Promise<EmbedOf> => {
      for (;;) {
        const part = pending.shift();
        if (!part) return embedOf;
        const [letter, ids] = part;
        const kind = embedKinds[letter];
        if (!kind) throw new Error(`Unknown embedded fragment kind '${letter}'`);
        // On PostgreSQL through the batches: the embeds of every miss of this turn in one statement per kind.
        const loaded = batches
          ? Promise.all([...ids].map((id) => batches.read(communityId, kind, id))).then((found) =>
              found.filter((row): row is FragmentRead => row !== undefined),
            )
          : readFragments(hot, communityId, kind, [...ids]);
        if (loaded instanceof Promise)
          return loaded.then((rows) => {
            take(letter, rows);
            return next();
          });
        take(letter, loaded);
      }
    };
    return next();
  }

  /**
   * On SQLite, one event or post answered at once, hit or miss: the cache, else one synchronous read and a
   * splice (kept). Null when the community has no such record; undefined when the store cannot answer
   * synchronously (PostgreSQL, or a change check in flight).
   */
  function oneNow(kind: 'event' | 'post', communityId: string, id: string, now: number): Answer | null | undefined {
    if (!hot.synchronous || cache.sync() !== undefined) return undefined;
    const key = `${kind}|${communityId}|${id}`;
    const hit = cache.get(key, now);
    if (hit) return hit;
    const generation = cache.generation();
    const started = performance.now();
    const rows = readOne(hot, communityId, kind, id);
    if (rows instanceof Promise) throw new Error('readOne answered asynchronously on a synchronous store');
    const row = rows[0];
    if (!row) return null;
    const embedOf = embedsFor(communityId, [row], generation);
    if (embedOf instanceof Promise) throw new Error('embedsFor answered asynchronously on a synchronous store');
    const answer = oneAnswer(kind.slice(0, 1), row, embedOf);
    cache.set(key, answer, generation, performance.now() - started);
    return answer;
  }

  /**
   * On PostgreSQL, one event or post from the batch of this turn of the event loop (fragment-batch.ts), spliced
   * and kept; null when the community has no such record.
   */
  async function oneBatched(
    batched: FragmentBatches,
    kind: 'event' | 'post',
    communityId: string,
    id: string,
    now: number,
  ): Promise<Answer | null> {
    const key = `${kind}|${communityId}|${id}`;
    const pendingSync = cache.sync();
    if (pendingSync) await pendingSync;
    const hit = cache.get(key, now);
    if (hit) return hit;
    const generation = cache.generation();
    const started = performance.now();
    const row = await batched.read(communityId, kind, id);
    if (!row) return null;
    const answer = oneAnswer(kind.slice(0, 1), row, await embedsFor(communityId, [row], generation));
    cache.set(key, answer, generation, performance.now() - started);
    return answer;
  }

  /**
   * The cached answer for `key`, or the one `compute` makes (kept unless the store changed meanwhile, with the time it
   * took: the cache lets go first of what is quickest to make again).
   */
  async function cached(key: string, now: number, compute: () => Promise<CachedAnswer | null>): Promise<Answer | null> {
    const sync = cache.sync();
    if (sync) await sync;
    const hit = cache.get(key, now);
    if (hit) return hit;
    const generation = cache.generation();
    const started = performance.now();
    const answer = await compute();
    if (answer) cache.set(key, answer, generation, performance.now() - started);
    return answer;
  }

  /** One event or post as `{success, data}`, or null when the community has no such record. */
  function one(kind: 'event' | 'post', communityId: string, id: string, now: number): Promise<Answer | null> {
    if (batches) return oneBatched(batches, kind, communityId, id, now);
    return cached(`${kind}|${communityId}|${id}`, now, async () => {
      const generation = cache.generation();
      const row = (await readOne(hot, communityId, kind, id))[0];
      return row ? oneAnswer(kind.slice(0, 1), row, await embedsFor(communityId, [row], generation)) : null;
    });
  }

  return {
    /**
     * One event or post for a by-id route's early answer, hit or miss, or undefined when the community has no such
     * record (the handler then answers 404). SQLite answers synchronously (`oneNow`); PostgreSQL waits for a change
     * check in flight, so that a cached answer is never read past a change another process made, and reads a
     * miss in this turn's batch.
     */
    peek(
      kind: 'event' | 'post',
      communityId: string,
      id: string,
      now: number,
    ): Answer | undefined | Promise<Answer | undefined> {
      const answer = oneNow(kind, communityId, id, now);
      if (answer !== undefined) return answer ?? undefined;
      return one(kind, communityId, id, now).then((found) => found ?? undefined);
    },

    one,

    /**
     * A page answer under `key`. Only on a miss: `load` counts and reads the page's fragments, and `valid`
     * bounds an answer that time changes.
     */
    page(
      key: string,
      communityId: string,
      now: number,
      load: () => Promise<{ facts: PageFacts; rows: FragmentRead[] }>,
      valid?: () => Promise<{ from: number; until: number }>,
    ): Promise<Answer> {
      return cached(key, now, async () => {
        const generation = cache.generation();
        const window = valid ? await valid() : undefined;
        const { facts, rows } = await load();
        return { ...pageAnswer(facts, rows, await embedsFor(communityId, rows, generation)), ...window };
      }) as Promise<Answer>;
    },

    /**
     * A page answer of `rows` (already read, in page order) made now and kept nowhere: for answers that
     * depend on more than the records, such as search's ranking. `extras` as `pageAnswer` takes them.
     */
    async assemble(
      communityId: string,
      facts: PageFacts,
      rows: readonly FragmentRead[],
      extras: readonly Buffer[] | null = null,
    ): Promise<Answer> {
      const sync = cache.sync();
      if (sync) await sync;
      const embedOf = await embedsFor(communityId, rows, cache.generation());
      return pageAnswer(facts, rows, embedOf, extras);
    },

    /**
     * An answer kept under `key` until the store changes (any write empties the cache, as for every kept answer):
     * `make` reads and assembles it on a miss. Search keeps its post pages this way.
     */
    kept(key: string, now: number, make: () => Promise<Answer>): Promise<Answer> {
      return cached(key, now, make) as Promise<Answer>;
    },

    async directory(communityId: string): Promise<Directory> {
      const sync = cache.sync();
      if (sync) await sync;
      const known = directories.get(communityId);
      if (known) return known;
      const generation = cache.generation();
      const [listings, maxEventSpanMs] = await Promise.all([
        readFeedListings(hot, communityId),
        readMaxEventSpan(hot, communityId),
      ]);
      const feeds = new Map(listings.map((feed) => [feed.id, feed]));
      const listed = listings.filter((feed) => !feed.is_archived && !feed.is_unlisted);
      const directory: Directory = {
        feeds,
        // Every post belongs to a feed of its community, so with nothing hidden no filter is needed.
        home: {
          feedIds: listed.length === listings.length ? null : listed.map((feed) => feed.id),
          total: listed.reduce((sum, feed) => sum + Number(feed.posts_count), 0),
        },
        maxEventSpanMs,
      };
      if (generation === cache.generation()) directories.set(communityId, directory);
      return directory;
    },

    stats: cache.stats,
  };
}
export type FragmentReader = ReturnType<typeof createFragmentReader>;
