// SQL of chat announcements: what an event's write reads to decide them, the rows it records, and the sender's
// claims, settlements and listings.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { ChatAnnouncementsTable, Database } from '../db/database.js';

export type AnnouncementRow = Selectable<ChatAnnouncementsTable>;

/** Whether the community has a Slack connection (its bot token is required, so a row means one). */
export async function hasBotConnection(db: Kysely<Database>, communityId: string): Promise<boolean> {
  const row = await db
    .selectFrom('slack_connections')
    .select('community_id')
    .where('community_id', '=', communityId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The event's facts a message is made of, or undefined when it is gone. */
export function eventFacts(db: Kysely<Database>, communityId: string, eventId: string) {
  return db
    .selectFrom('calendar_events')
    .select(['title', 'status', 'start_at', 'end_at', 'show_end_date', 'time_zone', 'location', 'link'])
    .where('community_id', '=', communityId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

/** The event's publications in a Slack channel, in their order. */
export function channelPublications(db: Kysely<Database>, communityId: string, eventId: string) {
  return db
    .selectFrom('event_publications')
    .select(['feed_id', 'chat_channel_id', 'chat_message_permalink'])
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('chat_channel_id', 'is not', null)
    .orderBy('position')
    .execute();
}

export function announcementsOf(db: Kysely<Database>, communityId: string, eventId: string) {
  return db
    .selectFrom('chat_announcements')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .execute();
}

export async function insertAnnouncement(db: Kysely<Database>, row: Insertable<ChatAnnouncementsTable>): Promise<void> {
  await db.insertInto('chat_announcements').values(row).execute();
}

const keyed = (db: Kysely<Database>, row: Pick<AnnouncementRow, 'community_id' | 'event_id' | 'chat_channel_id'>) =>
  db
    .updateTable('chat_announcements')
    .where('community_id', '=', row.community_id)
    .where('event_id', '=', row.event_id)
    .where('chat_channel_id', '=', row.chat_channel_id);

/** A new message to show: a new version, due now, its failures forgotten (a parked one is tried again). */
export async function changeAnnouncement(
  db: Kysely<Database>,
  row: AnnouncementRow,
  changes: Pick<Updateable<ChatAnnouncementsTable>, 'wanted' | 'message' | 'feed_id'>,
  at: string,
): Promise<void> {
  await keyed(db, row)
    .set({
      ...changes,
      version: sql<number>`version + 1`,
      state: 'pending',
      attempts: 0,
      next_attempt_at: at,
      last_error: null,
      updated_at: at,
    })
    .execute();
}

/**
 * Claims up to `limit` due announcements until `claimUntil`: each claim is an update that only succeeds while the
 * row is still free, so two senders never hold one row. A claim left by a killed process runs out.
 */
export async function claimDueAnnouncements(
  db: Kysely<Database>,
  now: string,
  claimUntil: string,
  limit: number,
): Promise<AnnouncementRow[]> {
  const keys = await db
    .selectFrom('chat_announcements')
    .select(['community_id', 'event_id', 'chat_channel_id'])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: AnnouncementRow[] = [];
  for (const key of keys) {
    const row = await keyed(db, key)
      .set({ claimed_until: claimUntil })
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returningAll()
      .executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** Updates a claimed row, unless its claim ran out and another sender holds it now; true when it did. */
export async function updateClaimed(
  db: Kysely<Database>,
  row: AnnouncementRow,
  claim: string,
  changes: Updateable<ChatAnnouncementsTable>,
): Promise<boolean> {
  const result = await keyed(db, row).set(changes).where('claimed_until', '=', claim).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends a claim after Slack shows `version`: done, unless a later change made a newer version meanwhile (then it is
 * due again at once).
 */
export async function settleSent(
  db: Kysely<Database>,
  row: AnnouncementRow,
  claim: string,
  version: number,
  at: string,
): Promise<void> {
  await keyed(db, row)
    .set({
      sent_version: version,
      state: sql<'pending' | 'done'>`case when version = ${version} then 'done' else 'pending' end`,
      attempts: 0,
      last_error: null,
      claimed_until: null,
      next_attempt_at: at,
      updated_at: at,
    })
    .where('claimed_until', '=', claim)
    .execute();
}

/** Lists announcements that are parked (`failed`) or still to send, oldest change first. */
export function listAnnouncements(db: Kysely<Database>, states: readonly ('pending' | 'failed')[]) {
  return db
    .selectFrom('chat_announcements')
    .innerJoin('communities', 'communities.id', 'chat_announcements.community_id')
    .select([
      'communities.slug',
      'chat_announcements.event_id',
      'chat_announcements.chat_channel_id',
      'chat_announcements.wanted',
      'chat_announcements.state',
      'chat_announcements.attempts',
      'chat_announcements.last_error',
      'chat_announcements.next_attempt_at',
      'chat_announcements.updated_at',
    ])
    .where('chat_announcements.state', 'in', states)
    .orderBy('chat_announcements.updated_at')
    .orderBy('chat_announcements.event_id')
    .execute();
}

/** Makes parked announcements of a community (one event's, or all) due again now; returns how many. */
export async function retryParked(
  db: Kysely<Database>,
  communityId: string,
  eventId: string | null,
  at: string,
): Promise<number> {
  let query = db
    .updateTable('chat_announcements')
    .set({ state: 'pending', attempts: 0, next_attempt_at: at, claimed_until: null, updated_at: at })
    .where('community_id', '=', communityId)
    .where('state', '=', 'failed');
  if (eventId !== null) query = query.where('event_id', '=', eventId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
