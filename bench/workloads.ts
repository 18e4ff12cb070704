// The workloads: the URLs each requests in rotation, from ids and feeds in the corpus and the demo's vocabulary.
import { SqliteDriver as Database, type SqliteConnection } from '../src/db/sqlite-driver.js';
import { TOPICS } from '../src/demo/names.js';
import { vocabulary } from '../src/demo/vocabulary.js';
import { shuffled } from './stats.js';
import { seeded, searchZipfQueries, zipf } from './zipf.js';

export interface Workload {
  name: string;
  title: string;
  description: string;
  paths: string[];
  /** Workloads that need the search endpoint are skipped while it does not exist. */
  needsSearch: boolean;
  /** Requests carry the ETag each path last answered in `If-None-Match`, and must get 304. */
  conditional?: boolean;
  /** Requests carry `Accept-Encoding: <coding>`, and every answer must come back in it. */
  coding?: 'br' | 'gzip';
  /** The workload asking for the same answers uncompressed, for the compression table. */
  identity?: string;
  /** Requests carry the console's session cookie (one operator signed in once) instead of the API token. */
  session?: boolean;
  /** Its paths in kinds (the console's pages), each kind also measured on its own for its own percentiles. */
  pages?: { name: string; paths: string[] }[];
}

const API = '/admin/v0';
/** How many paths the console workload rotates through, drawn evenly from its pages. */
const CONSOLE_PATHS = 200;
const n = (value: number) => value.toLocaleString('en-US');
const PER_PAGE = 10;
/** How many distinct ids the id lookups rotate through. */
const IDS = 1000;
/** Ids spread over the whole corpus, more than the answer cache holds, so nearly every lookup misses it. */
const SPREAD_IDS = 50_000;
/** How many requests the Zipf workloads draw (by id and search): enough for the tail to show, repeats as they come. */
const ZIPF_DRAWS = 50_000;
/** search-zipf's queries: as many as a few minutes of a busy site's search box. */
const SEARCH_ZIPF_DRAWS = 5_000;
/** The deep page: page 5000 of 10 (offset 50,000), or the middle of a smaller feed; 1,000 pages around it. */
const DEEP_PAGE = 5000;

interface FeedRow {
  id: string;
  slug: string;
  label: string;
  posts_count: number;
}

/** `count` rows of `table` picked at random by rowid (rowids are dense: the import only inserts). */
function randomIds(
  db: SqliteConnection,
  table: 'posts' | 'calendar_events',
  communityId: string,
  count: number,
  seed: number,
): string[] {
  const max = (db.prepare(`select max(rowid) as max from ${table}`).get() as { max: number | null }).max ?? 0;
  const lookup = db.prepare(`select id from ${table} where rowid = ? and community_id = ?`);
  const ids = new Set<string>();
  let state = seed;
  for (let attempts = 0; ids.size < Math.min(count, max) && attempts < count * 20; attempts++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const row = lookup.get(1 + (state % max), communityId) as { id: string } | undefined;
    if (row) ids.add(row.id);
  }
  if (ids.size === 0) throw new Error(`The corpus has no ${table}`);
  return [...ids];
}

/**
 * `count` ids of `table` drawn Zipf (s = 1) over every row: rank r is the row at a fixed pseudo-random rowid
 * (a multiplicative permutation of 1..max), so the popular rows are scattered over the whole corpus as a
 * community's popular threads are, and the tail reaches every row.
 */
function zipfIds(
  db: SqliteConnection,
  table: 'posts' | 'calendar_events',
  communityId: string,
  count: number,
  seed: number,
): string[] {
  const max = (db.prepare(`select max(rowid) as max from ${table}`).get() as { max: number | null }).max ?? 0;
  if (max === 0) throw new Error(`The corpus has no ${table}`);
  const lookup = db.prepare(`select id from ${table} where rowid = ? and community_id = ?`);
  const rank = zipf(max, 1, seeded(seed));
  // 2654435761 (Knuth's multiplier) is prime: coprime with any max it does not divide.
  const step = max % 2654435761 === 0 ? 40503 : 2654435761;
  const byRank = new Map<number, string>();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = rank();
    let id = byRank.get(r);
    if (id === undefined) {
      const rowid = 1 + Number((BigInt(r) * BigInt(step)) % BigInt(max));
      id = (lookup.get(rowid, communityId) as { id: string } | undefined)?.id ?? '';
      byRank.set(r, id);
    }
    if (id !== '') ids.push(id);
  }
  return ids;
}

/** Search words: the demo draws its first nouns most often and its last ones (from `rareFrom`) seldom. */
export const searchWords = {
  common: vocabulary.nouns.slice(0, 20),
  rare: vocabulary.nouns.slice(vocabulary.rareFrom.nouns, vocabulary.rareFrom.nouns + 100),
};

const common = searchWords.common;
/** Multi-word topics of the demo (the generator draws topics often): phrases that match many posts. */
const topics = TOPICS.filter((topic) => topic.includes(' '));

/**
 * The benchmark's search queries by kind, also the query set whose top 10 bench/search-quality.ts
 * compares with exact bm25: pairs of common nouns (both required, either, the first without the
 * second) and the demo's multi-word topics as quoted phrases.
 */
export const searchQueries = {
  common,
  rare: searchWords.rare,
  twoWord: common.map((word, i) => `${word} ${common[(i + 7) % common.length] ?? ''}`),
  phrase: topics.map((topic) => `"${topic}"`),
  or: common.map((word, i) => `${word} OR ${common[(i + 3) % common.length] ?? ''}`),
  excluded: common.map((word, i) => `${word} -${common[(i + 1) % common.length] ?? ''}`),
  /** 1,000 of search-zipf's queries (issue 40: the top 10 equals exact bm25's for at least 95% of them). */
  zipf: searchZipfQueries(1000, 21),
};

/** `count` paths drawn from weighted lists (deterministically), for the mixed workload. */
function mix(parts: readonly (readonly [Workload, number])[], count: number): string[] {
  const total = parts.reduce((sum, [, weight]) => sum + weight, 0);
  const out: string[] = [];
  for (const [workload, weight] of parts) {
    const share = Math.round((count * weight) / total);
    for (let i = 0; i < share; i++) out.push(workload.paths[i % workload.paths.length] ?? '/');
  }
  return shuffled(out, 7);
}

/** Every workload; the mixed one includes search only when `withSearch` (the search endpoint exists). */
export function buildWorkloads(databasePath: string, community: string, withSearch: boolean): Workload[] {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('select id from communities where slug = ?').get(community) as { id: string } | undefined;
    if (!row) throw new Error(`The corpus has no community '${community}'`);
    const communityId = row.id;
    const feeds = db
      .prepare('select id, slug, label, posts_count from feeds where community_id = ? order by posts_count desc, id')
      .all(communityId) as FeedRow[];
    const largest = feeds[0];
    if (!largest) throw new Error('The corpus has no feeds');
    const eventsFeed = feeds.find((feed) => feed.slug === 'events') ?? largest;

    const postIds = randomIds(db, 'posts', communityId, IDS, 1);
    const eventIds = randomIds(db, 'calendar_events', communityId, IDS, 2);
    const spreadPostIds = randomIds(db, 'posts', communityId, SPREAD_IDS, 11);
    const spreadEventIds = randomIds(db, 'calendar_events', communityId, SPREAD_IDS, 12);
    const lastPage = Math.max(0, Math.ceil(largest.posts_count / PER_PAGE) - 1);
    const center = Math.min(DEEP_PAGE, Math.floor(lastPage / 2));
    const deepPages = Array.from({ length: 1000 }, (_, i) => center - 500 + i).filter(
      (page) => page >= 0 && page <= lastPage,
    );
    const search = (q: string) => `${API}/search?q=${encodeURIComponent(q)}&type=post`;

    const health: Workload = {
      name: 'healthz',
      title: 'Health, no database',
      description:
        "GET /healthz: Fastify with Hearth's hooks and serialization but no token and no query, the framework's share of every request (no target)",
      paths: ['/healthz'],
      needsSearch: false,
    };
    const eventById: Workload = {
      name: 'event-by-id',
      title: 'Event by id',
      description: `GET /calendar_events/{id}, ${eventIds.length} random event ids in rotation`,
      paths: shuffled(
        eventIds.map((id) => `${API}/calendar_events/${id}`),
        1,
      ),
      needsSearch: false,
    };
    const postById: Workload = {
      name: 'post-by-id',
      title: 'Post by id',
      description: `GET /posts/{id}, ${postIds.length} random post ids in rotation`,
      paths: shuffled(
        postIds.map((id) => `${API}/posts/${id}`),
        2,
      ),
      needsSearch: false,
    };
    const notModified: Workload = {
      name: 'post-by-id-304',
      title: 'Post by id, 304',
      description: `GET /posts/{id} with If-None-Match holding its current ETag, ${postIds.length} ids in rotation: 304, no body`,
      paths: postById.paths,
      needsSearch: false,
      conditional: true,
    };
    const postSpread: Workload = {
      name: 'post-by-id-spread',
      title: 'Post by id, spread',
      description: `GET /posts/{id}, ${n(spreadPostIds.length)} random ids over the whole corpus in rotation: more than the answer cache holds, so it misses`,
      paths: shuffled(
        spreadPostIds.map((id) => `${API}/posts/${id}`),
        12,
      ),
      needsSearch: false,
    };
    const eventSpread: Workload = {
      name: 'event-by-id-spread',
      title: 'Event by id, spread',
      description: `GET /calendar_events/{id}, ${n(spreadEventIds.length)} random ids over the whole corpus in rotation (cache misses)`,
      paths: shuffled(
        spreadEventIds.map((id) => `${API}/calendar_events/${id}`),
        13,
      ),
      needsSearch: false,
    };
    const firstPage: Workload = {
      name: 'feed-first-page',
      title: 'Feed, first page',
      description: `GET /feeds/{feed}/posts?per_page=${PER_PAGE} (newest first, with total_records), every feed and home in rotation`,
      paths: [...feeds.map((feed) => feed.id), 'home'].map((id) => `${API}/feeds/${id}/posts?per_page=${PER_PAGE}`),
      needsSearch: false,
    };
    /** `workload` asked for in `coding`: the same URLs, compressed answers. */
    const compressed = (workload: Workload, coding: 'br' | 'gzip', name: string): Workload => ({
      ...workload,
      name: `${workload.name}-${coding}`,
      title: `${workload.title}, ${name}`,
      description: `${workload.description}, with \`Accept-Encoding: ${coding}\``,
      coding,
      identity: workload.name,
    });
    const firstPageGzip = compressed(firstPage, 'gzip', 'gzip');
    const firstPageBrotli = compressed(firstPage, 'br', 'brotli');
    const deepPage: Workload = {
      name: 'feed-deep-page',
      title: 'Feed, deep page',
      description:
        `GET /feeds/{${largest.label}}/posts?page=P&per_page=${PER_PAGE} on the largest feed (${n(largest.posts_count)} posts), ` +
        `P = ${n(deepPages[0] ?? 0)} to ${n(deepPages.at(-1) ?? 0)} (offset about ${n(center * PER_PAGE)}) in rotation`,
      paths: shuffled(
        deepPages.map((page) => `${API}/feeds/${largest.id}/posts?page=${page}&per_page=${PER_PAGE}`),
        3,
      ),
      needsSearch: false,
    };
    const filters = [
      'time_filter=upcoming&published_to_site=true',
      'time_filter=past&published_to_site=true',
      `time_filter=upcoming&feed_id=${eventsFeed.id}`,
    ];
    const eventsFiltered: Workload = {
      name: 'events-filtered',
      title: 'Events, filtered',
      description: `GET /calendar_events?${filters.join(' | ').replace(eventsFeed.id, `{${eventsFeed.label}}`)} (with total_records), pages 0 to 9 of each in rotation`,
      paths: shuffled(
        filters.flatMap((filter) =>
          Array.from({ length: 10 }, (_, page) => `${API}/calendar_events?${filter}&page=${page}`),
        ),
        4,
      ),
      needsSearch: false,
    };
    // The days that hold events, spread over the corpus: each answer is one day's published events as iCalendar.
    const eventDays = (
      db
        .prepare(
          "select distinct substr(start_at, 1, 10) as day from calendar_events where community_id = ? and status = 'published' order by day",
        )
        .all(communityId) as { day: string }[]
    ).map((r) => r.day);
    const days = eventDays.filter((_, i) => i % Math.max(1, Math.floor(eventDays.length / 100)) === 0).slice(0, 100);
    const eventsIcs: Workload = {
      name: 'events-ics',
      title: 'Events as iCalendar',
      description: `GET /calendar_events.ics?date_filter=D for ${days.length} days that hold events, in rotation (no target)`,
      paths: shuffled(
        days.map((day) => `${API}/calendar_events.ics?date_filter=${day}`),
        5,
      ),
      needsSearch: false,
    };
    const searchRare: Workload = {
      name: 'search-rare',
      title: 'Search, rare word',
      description: `GET /search?type=post&q=W, W one of ${searchWords.rare.length} rare words of the demo vocabulary (${searchWords.rare.slice(0, 3).join(', ')}, ...)`,
      paths: shuffled(searchWords.rare.map(search), 5),
      needsSearch: true,
    };
    const searchCommon: Workload = {
      name: 'search-common',
      title: 'Search, common word',
      description: `GET /search?type=post&q=W, W one of the ${searchWords.common.length} most frequent nouns (${searchWords.common.slice(0, 3).join(', ')}, ...)`,
      paths: shuffled(searchWords.common.map(search), 6),
      needsSearch: true,
    };
    const searchOf = (
      name: string,
      title: string,
      what: string,
      queries: readonly string[],
      seed: number,
    ): Workload => ({
      name,
      title,
      description: `GET /search?type=post&q=Q, Q one of ${queries.length} ${what} (${queries
        .slice(0, 2)
        .map((q) => `'${q}'`)
        .join(', ')}, ...)`,
      paths: shuffled(queries.map(search), seed),
      needsSearch: true,
    });
    const searchTwoWord = searchOf(
      'search-two-word',
      'Search, two words',
      'pairs of common nouns, both required',
      searchQueries.twoWord,
      11,
    );
    const searchPhrase = searchOf(
      'search-phrase',
      'Search, phrase',
      'quoted multi-word topics of the demo',
      searchQueries.phrase,
      12,
    );
    const searchOr = searchOf('search-or', 'Search, OR', 'pairs of common nouns joined by OR', searchQueries.or, 13);
    const searchZipf: Workload = {
      name: 'search-zipf',
      title: 'Search, Zipf',
      description: `GET /search?type=post&q=Q, ${n(SEARCH_ZIPF_DRAWS)} queries as a search box receives them (bench/zipf.ts): words Zipf (s = 1) over the demo's vocabulary; 45% one word, 20% two, 10% three, 15% quoted topics, 10% OR`,
      paths: searchZipfQueries(SEARCH_ZIPF_DRAWS, 21).map(search),
      needsSearch: true,
    };
    const postZipf = zipfIds(db, 'posts', communityId, Math.round(ZIPF_DRAWS * 0.8), 31).map(
      (id) => `${API}/posts/${id}`,
    );
    const eventZipf = zipfIds(db, 'calendar_events', communityId, Math.round(ZIPF_DRAWS * 0.2), 32).map(
      (id) => `${API}/calendar_events/${id}`,
    );
    const byIdZipf: Workload = {
      name: 'by-id-zipf',
      title: 'By id, Zipf',
      description: `GET /posts/{id} (80%) and /calendar_events/{id} (20%), ${n(ZIPF_DRAWS)} ids drawn Zipf (s = 1) over the whole corpus: popular records often, every record now and then`,
      paths: shuffled([...postZipf, ...eventZipf], 33),
      needsSearch: false,
    };
    // The console's main pages as an operator reads them: both event lists, months that hold events, a search
    // with highlights, the members list and a name search, the health page; one signed-in session throughout.
    const consoleBase = `/console/c/${community}`;
    const months = [...new Set(eventDays.map((day) => day.slice(0, 7)))];
    const someMonths = months.filter((_, i) => i % Math.max(1, Math.floor(months.length / 12)) === 0).slice(0, 12);
    const consolePages = [
      {
        name: 'events lists',
        paths: [`${consoleBase}/events?time_filter=upcoming`, `${consoleBase}/events?time_filter=past`],
      },
      { name: 'month view', paths: someMonths.map((month) => `${consoleBase}/events/month?month=${month}`) },
      {
        name: 'content search',
        paths: searchWords.common.map(
          (word) => `${consoleBase}/content/search?type=post&q=${encodeURIComponent(word)}`,
        ),
      },
      { name: 'members', paths: [`${consoleBase}/members`, `${consoleBase}/members?state=active`] },
      { name: 'health', paths: [`${consoleBase}/health`] },
    ];
    // Each page kind an equal share of the requests, however many addresses it has.
    const consolePaths = consolePages.flatMap(({ paths }) =>
      Array.from({ length: CONSOLE_PATHS / consolePages.length }, (_, i) => paths[i % paths.length] ?? consoleBase),
    );
    const consoleWorkload: Workload = {
      name: 'console-pages',
      title: 'Console pages',
      description: `GET of the console's main pages with one signed-in session cookie, an equal share each: events (upcoming, past), the month view (${someMonths.length} months), content search with highlights (${searchWords.common.length} common words), members, health`,
      paths: shuffled(consolePaths, 41),
      needsSearch: true,
      session: true,
      pages: consolePages,
    };
    const single = [
      health,
      eventById,
      postById,
      notModified,
      eventSpread,
      postSpread,
      compressed(postSpread, 'br', 'brotli'),
      firstPage,
      firstPageGzip,
      firstPageBrotli,
      deepPage,
      eventsFiltered,
      eventsIcs,
      searchRare,
      searchCommon,
      searchTwoWord,
      searchPhrase,
      searchOr,
      searchZipf,
      byIdZipf,
      consoleWorkload,
    ];
    // As a community site is read: most requests open one record (links from chat, notifications, crawlers), popular
    // ones often and old ones now and then (by-id-zipf); lists next (feeds, the calendar); a search box used by one
    // visit in ten; deep pages seldom (crawlers).
    const weights: [Workload, number][] = [
      [byIdZipf, 35],
      [postById, 15],
      [eventById, 10],
      [firstPage, 15],
      [eventsFiltered, 10],
      [deepPage, 5],
      [searchZipf, 10],
    ];
    const parts = weights.filter(([workload]) => withSearch || !workload.needsSearch);
    const mixed: Workload = {
      name: 'mixed',
      title: withSearch ? 'Mixed' : 'Mixed (no search)',
      description: `as a community site is read, weighted ${parts.map(([w, weight]) => `${w.name} ${weight}`).join(', ')}`,
      paths: mix(parts, 2000),
      needsSearch: false,
    };
    return [...single, mixed];
  } finally {
    db.close();
  }
}
