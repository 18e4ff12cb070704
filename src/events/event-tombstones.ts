// Tombstones of events that leave the public calendar (deleted, unpublished, unlisted, taken off the site): written
// in the change's own transaction, kept for a bounded time, read by the calendar feeds as STATUS:CANCELLED.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { epochOfStored, toStored } from '../lib/timestamps.js';
import type { EventRow } from './events.repository.js';

/** How long a subscribed calendar is told of an event that left (calendar apps poll hourly to daily). */
export const TOMBSTONE_RETENTION_DAYS = 30;
const RETENTION_MS = TOMBSTONE_RETENTION_DAYS * 86_400_000;

type Visibility = Pick<EventRow, 'status' | 'publish_to_site' | 'is_unlisted'>;

/** On the public calendar: published, on the site and not unlisted. */
export const onPublicCalendar = (event: Visibility): boolean =>
  event.status === 'published' && Boolean(event.publish_to_site) && !event.is_unlisted;

/**
 * Called by a change before it writes `before` as `after` (null: deleted): an event leaving the public calendar
 * leaves a tombstone whose SEQUENCE is above any the event had (the community's next version); one coming back
 * takes its tombstone away. Tombstones past their retention go in the same change.
 */
export async function noteCalendarChange(
  db: Kysely<Database>,
  before: EventRow,
  after: Visibility | null,
  at: string,
): Promise<void> {
  const communityId = before.community_id;
  const wasShown = onPublicCalendar(before);
  const isShown = after !== null && onPublicCalendar(after);
  if (wasShown === isShown) return;
  if (isShown) {
    await db
      .deleteFrom('calendar_tombstones')
      .where('community_id', '=', communityId)
      .where('event_id', '=', before.id)
      .execute();
    return;
  }
  const [feeds, community] = await Promise.all([
    db
      .selectFrom('event_publications')
      .select('feed_id')
      .where('community_id', '=', communityId)
      .where('event_id', '=', before.id)
      .orderBy('position')
      .execute(),
    db.selectFrom('communities').select('fragment_version').where('id', '=', communityId).executeTakeFirstOrThrow(),
  ]);
  const row = {
    community_id: communityId,
    event_id: before.id,
    title: before.title ?? '',
    start_at: before.start_at,
    end_at: before.end_at,
    time_zone: before.time_zone,
    feed_ids: feeds.map((f) => f.feed_id).join(','),
    sequence: Number(community.fragment_version) + 1,
    removed_at: at,
  };
  await db
    .insertInto('calendar_tombstones')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['community_id', 'event_id']).doUpdateSet({
        title: sql`excluded.title`,
        start_at: sql`excluded.start_at`,
        end_at: sql`excluded.end_at`,
        time_zone: sql`excluded.time_zone`,
        feed_ids: sql`excluded.feed_ids`,
        sequence: sql`excluded.sequence`,
        removed_at: sql`excluded.removed_at`,
      }),
    )
    .execute();
  await db
    .deleteFrom('calendar_tombstones')
    .where('community_id', '=', communityId)
    .where('removed_at', '<', toStored(epochOfStored(at) - RETENTION_MS))
    .execute();
}
