// Reads answers made of fragments: from the answer cache when it holds them, else one statement for the
// record (or the page) and the embedded profiles, feeds and tags from a per-process map of small fragments.
import { LRUCache } from 'lru-cache';
import type { FragmentsTable } from '../db/database.js';
import type { Store } from '../db/store.js';
import type { AnswerCache, CachedAnswer } from './answer-cache.js';
import {
  readFeedListings,
  readFragment,
  readFragments,
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
  cache.onChange(() => {
    embeds.clear();
    directories.clear();
  });

  /**
   * The embedded fragments `rows` refer to: those this process holds, and the others loaded. Each is taken
   * into a map of this read's own, so an eviction meanwhile (another request's load) cannot leave a hole.
   */
  async function embedsFor(
    communityId: string,
    rows: readonly FragmentRead[],
    generation: number,
  ): Promise<(ref: string) => Embedded> {
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
    for (const [letter, ids] of missing) {
      const kind = embedKinds[letter];
      if (!kind) throw new Error(`Unknown embedded fragment kind '${letter}'`);
      for (const row of await readFragments(hot, communityId, kind, [...ids])) {
        const key = `${communityId}|${letter}:${row.id}`;
        const embedded = { body: row.body, version: Number(row.version) };
        found.set(key, embedded);
        if (generation === cache.generation()) embeds.set(key, embedded);
      }
    }
    return (ref) => {
      const embedded = found.get(`${communityId}|${ref}`);
      // Foreign keys make this unreachable; an answer with a hole in it would be worse than a 500.
      if (!embedded) throw new Error(`Fragment ${ref} of community '${communityId}' is referenced but missing`);
      return embedded;
    };
  }

  /** The cached answer for `key`, or the one `compute` makes (kept unless the store changed meanwhile). */
  async function cached(key: string, now: number, compute: () => Promise<CachedAnswer | null>): Promise<Answer | null> {
    const sync = cache.sync();
    if (sync) await sync;
    const hit = cache.get(key, now);
    if (hit) return hit;
    const generation = cache.generation();
    const answer = await compute();
    if (answer) cache.set(key, answer, generation);
    return answer;
  }

  return {
    /**
     * The cached answer for one event or post, or undefined; a change check in flight (on PostgreSQL a query) is
     * waited for first, so that a cached answer is never read past a change another process made.
     */
    peek(
      kind: 'event' | 'post',
      communityId: string,
      id: string,
      now: number,
    ): Answer | undefined | Promise<Answer | undefined> {
      const key = `${kind}|${communityId}|${id}`;
      const sync = cache.sync();
      return sync ? sync.then(() => cache.peek(key, now)) : cache.peek(key, now);
    },

    /** One event or post as `{success, data}`, or null when the community has no such record. */
    one(kind: 'event' | 'post', communityId: string, id: string, now: number): Promise<Answer | null> {
      return cached(`${kind}|${communityId}|${id}`, now, async () => {
        const generation = cache.generation();
        const row = await readFragment(hot, communityId, kind, id);
        return row ? oneAnswer(kind.slice(0, 1), row, await embedsFor(communityId, [row], generation)) : null;
      });
    },

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
