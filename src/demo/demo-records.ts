// The demo data generator: a deterministic stream of NDJSON import records, referenced records first.
import { buildFeeds, buildTags } from './catalog.js';
import { eventRecords } from './events.js';
import { buildPeople } from './people.js';
import { postRecords } from './posts.js';
import { mixSeed, Random, ShortIds } from './random.js';
import { TextGen } from './text.js';
import type { World } from './world.js';

export interface DemoOptions {
  /** Epoch milliseconds that the demo treats as now: events fall before and after it, posts before it. */
  now: number;
  /** Number of posts. Absent: the small, richly formatted default demo. */
  scale?: number;
  seed?: number;
}

export interface DemoSize {
  posts: number;
  events: number;
  members: number;
  admins: number;
  rich: boolean;
  manyFeeds: boolean;
}

const DEFAULT_SEED = 20260308;

/** How much of everything a demo holds; scaled demos keep N posts : N/10 events : N/20 members (at least 10). */
export function demoSize(scale: number | undefined): DemoSize {
  if (scale === undefined) return { posts: 120, events: 30, members: 40, admins: 3, rich: true, manyFeeds: false };
  const posts = Math.max(0, Math.floor(scale));
  return {
    posts,
    events: Math.floor(posts / 10),
    members: Math.max(10, Math.floor(posts / 20)),
    admins: 3,
    rich: false,
    manyFeeds: true,
  };
}

/**
 * Feeds, profiles and tags, then calendar events, then posts each followed by its comments:
 * every id a record refers to is defined earlier in the stream, so consecutive chunks import on their own.
 * The same options always give the same records.
 */
export function* demoRecords(options: DemoOptions): Generator<Record<string, unknown>> {
  const seed = options.seed ?? DEFAULT_SEED;
  const now = Math.floor(options.now);
  const size = demoSize(options.scale);
  // One stream per part, so that changing how one part is generated leaves the others as they were.
  const stream = (label: string) => new Random(mixSeed(seed, label));

  const feeds = buildFeeds(stream('feeds'), size.manyFeeds, now);
  const people = buildPeople(stream('people'), size.members, size.admins, now);
  const tags = buildTags(stream('tags'), now);
  const world: World = {
    now,
    rich: size.rich,
    ids: new ShortIds(stream('short-ids')),
    members: people.members,
    admins: people.admins,
    bot: people.bot,
    feeds: feeds.feeds,
    tags: tags.tags,
  };

  yield* feeds.records;
  yield* people.records;
  yield* tags.records;
  yield* eventRecords(world, new TextGen(stream('events')), size.events);
  yield* postRecords(world, new TextGen(stream('posts')), size.posts);
}
