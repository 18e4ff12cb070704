// Renders the fragments of records a change touched, inside that change's transaction: the write path's
// half of the read path, turning the features' rows into the read model's bytes. Records that no longer exist
// lose their fragment. The composition root hands `refreshFragments` to the write runner.
import type { Kysely } from 'kysely';
import type { Database, FragmentsTable } from '../db/database.js';
import { groupEventLists, toCalendarEvent } from '../events/event.mapper.js';
import { eventListIds, eventPublications, eventsByIds } from '../events/events.repository.js';
import { feedsByIds } from '../feeds/feeds.repository.js';
import { epochOfStored } from '../lib/timestamps.js';
import { toFeedSummary } from '../posts/post.mapper.js';
import { postsByIds } from '../posts/posts.repository.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import { toTag } from '../events/event.mapper.js';
import { tagsByIds } from '../events/events.repository.js';
import { chunk } from '../db/batch.js';
import { renderEventTemplate, renderFeedSummary, renderProfile, renderTag } from '../fragments/fragment-templates.js';
import type { EncodedFragments } from './fragment-bodies.js';
import { renderPost, type RenderedFragment } from './post-fragment.js';
import {
  deleteFragments,
  nextCommunityVersion,
  raiseEventSpan,
  refreshEventFeeds,
  writeFragments,
  type FragmentRow,
} from '../fragments/fragments.repository.js';
import type { Touched } from '../fragments/touched.js';

type Kind = FragmentsTable['kind'];
type Rendered = RenderedFragment;
type Renderer = (db: Kysely<Database>, communityId: string, ids: string[]) => Promise<Rendered[]>;

const PART = 500;

const renderers: Record<Kind, Renderer> = {
  async profile(db, communityId, ids) {
    const rows = await profilesByIds(db, communityId, ids);
    return [...rows.values()].map((row) => ({ id: row.id, text: renderProfile(toProfile(row)) }));
  },
  async feed(db, communityId, ids) {
    const rows = await feedsByIds(db, communityId, ids);
    return rows.map((row) => ({ id: row.id, text: renderFeedSummary(toFeedSummary(row)) }));
  },
  async tag(db, communityId, ids) {
    const rows = await tagsByIds(db, communityId, ids);
    return rows.map((row) => ({ id: row.id, text: renderTag(toTag(row)) }));
  },
  // Hosts, speakers and tags are holes filled at read time: their ids are all the fragment needs of them.
  async event(db, communityId, ids) {
    const rows = await eventsByIds(db, communityId, ids);
    if (rows.length === 0) return [];
    const [lists, publications] = await Promise.all([
      eventListIds(db, communityId, ids),
      eventPublications(db, communityId, ids),
    ]);
    const published = groupEventLists([], [], publications);
    const holes = new Map<string, { hosts: string[]; speakers: string[]; tags: string[] }>();
    const holesOf = (eventId: string) => {
      const found = holes.get(eventId) ?? { hosts: [], speakers: [], tags: [] };
      holes.set(eventId, found);
      return found;
    };
    for (const row of lists.profiles)
      holesOf(row.event_id)[row.role === 'host' ? 'hosts' : 'speakers'].push(row.profile_id);
    for (const row of lists.tags) holesOf(row.event_id).tags.push(row.tag_id);
    const spans = rows.map((row) => epochOfStored(row.occupied_until) - epochOfStored(row.start_at));
    await raiseEventSpan(db, communityId, Math.max(0, ...spans));
    return rows.map((row) => ({
      id: row.id,
      ...renderEventTemplate(
        toCalendarEvent(row, published.get(row.id)),
        holes.get(row.id) ?? { hosts: [], speakers: [], tags: [] },
      ),
    }));
  },
  async post(db, communityId, ids) {
    return (await postsByIds(db, communityId, ids)).map(renderPost);
  },
};

const fragmentRow = (communityId: string, kind: Kind, version: number, { id, text, refs }: Rendered): FragmentRow => ({
  community_id: communityId,
  kind,
  id,
  version,
  refs: refs?.join(',') ?? '',
  body: Buffer.from(text, 'utf8'),
});

/**
 * The fragments of posts the import's worker rendered from the rows it made (see derive-chunks.ts), at `version`:
 * each body a view of the block they were encoded into.
 */
export function postFragments(communityId: string, encoded: EncodedFragments, version: number): FragmentRow[] {
  const bytes = Buffer.from(encoded.bytes.buffer, encoded.bytes.byteOffset, encoded.bytes.byteLength);
  let start = 0;
  return encoded.fragments.map(({ id, refs, end }) => {
    const body = bytes.subarray(start, end);
    start = end;
    return { community_id: communityId, kind: 'post', id, version, refs: refs?.join(',') ?? '', body };
  });
}

async function refreshKind(
  db: Kysely<Database>,
  communityId: string,
  kind: Kind,
  ids: Iterable<string>,
  version: number,
): Promise<void> {
  // In key order: each part's rows, and their fragments' keys, then lie next to the part before's in the key
  // indexes, where an import's ids in file order (random UUIDs) took a random page of each index per record.
  for (const part of chunk([...new Set(ids)].sort(), PART)) {
    const rendered = await renderers[kind](db, communityId, part);
    await writeFragments(
      db,
      rendered.map((one) => fragmentRow(communityId, kind, version, one)),
    );
    const found = new Set(rendered.map((r) => r.id));
    const gone = part.filter((id) => !found.has(id));
    if (gone.length > 0) await deleteFragments(db, communityId, kind, gone);
    if (kind === 'event') await refreshEventFeeds(db, communityId, part);
  }
}

/** Re-renders what a change touched, under one new version of its community; call inside the change's transaction. */
export async function refreshFragments(db: Kysely<Database>, communityId: string, touched: Touched): Promise<void> {
  const version = await nextCommunityVersion(db, communityId);
  const kinds: [Kind, Iterable<string> | undefined][] = [
    ['profile', touched.profiles],
    ['feed', touched.feeds],
    ['tag', touched.tags],
    ['event', touched.events],
    ['post', touched.posts],
  ];
  for (const [kind, ids] of kinds) if (ids) await refreshKind(db, communityId, kind, ids, version);
}

/** Where each kind's records are, and how a change names them. */
const sources: Record<
  Kind,
  { table: 'profiles' | 'feeds' | 'tags' | 'calendar_events' | 'posts'; touched: keyof Touched }
> = {
  profile: { table: 'profiles', touched: 'profiles' },
  feed: { table: 'feeds', touched: 'feeds' },
  tag: { table: 'tags', touched: 'tags' },
  event: { table: 'calendar_events', touched: 'events' },
  post: { table: 'posts', touched: 'posts' },
};

/**
 * Renders every record of `kinds` (all by default) in a community, under one version of it: what a migration
 * left pending (pending-renders.ts), and repairs.
 */
export async function rebuildCommunity(
  db: Kysely<Database>,
  communityId: string,
  kinds: readonly Kind[] = ['profile', 'feed', 'tag', 'event', 'post'],
): Promise<void> {
  const touched: Touched = {};
  for (const kind of new Set(kinds)) {
    const { table, touched: key } = sources[kind];
    const rows = await db.selectFrom(table).select('id').where('community_id', '=', communityId).execute();
    touched[key] = rows.map((row) => row.id);
  }
  await refreshFragments(db, communityId, touched);
}
