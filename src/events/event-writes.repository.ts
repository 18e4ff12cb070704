// SQL of event writes: the row locked for a change, the people, tags and feeds a body names, and the lists.
import type { Insertable, Kysely } from 'kysely';
import type { CalendarEventsTable, Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { UUID_PATTERN } from '../lib/ids.js';
import type { EventColumns } from './event-input.js';
import type { EventRow } from './events.repository.js';
import { resolveChatUsers } from '../profiles/profiles.repository.js';

const uuid = new RegExp(UUID_PATTERN);

/** The event row, locked until the transaction ends where the store has row locks (SQLite has one writer). */
export function lockEvent(
  db: Kysely<Database>,
  dialect: StoreDialect,
  communityId: string,
  id: string,
): Promise<EventRow | undefined> {
  let query = db.selectFrom('calendar_events').selectAll().where('community_id', '=', communityId).where('id', '=', id);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Profile ids for references that are profile ids, member e-mails (case-insensitive) or chat user ids; unknown
 * ones are absent. A reference without `@` that is no profile id is looked up as a chat user id.
 */
export async function resolvePeople(
  db: Kysely<Database>,
  communityId: string,
  refs: readonly string[],
): Promise<Map<string, string>> {
  const ids = refs.filter((ref) => uuid.test(ref));
  const others = refs.filter((ref) => !uuid.test(ref));
  const emails = others.filter((ref) => ref.includes('@')).map((ref) => ref.trim().toLowerCase());
  const found = await resolveChatUsers(
    db,
    communityId,
    others.filter((ref) => !ref.includes('@')),
  );
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('profiles')
      .select('id')
      .where('community_id', '=', communityId)
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) found.set(row.id, row.id);
  }
  if (emails.length > 0) {
    const rows = await db
      .selectFrom('profiles')
      .select(['id', 'email_key'])
      .where('community_id', '=', communityId)
      .where('email_key', 'in', emails)
      .execute();
    for (const row of rows) if (row.email_key) found.set(row.email_key, row.id);
  }
  return found;
}

export async function tagIdsIn(
  db: Kysely<Database>,
  communityId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tags')
    .select('id')
    .where('community_id', '=', communityId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

export async function publishableFeeds(db: Kysely<Database>, communityId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { chat_channel_id: string | null }>();
  const rows = await db
    .selectFrom('feeds')
    .select(['id', 'chat_channel_id'])
    .where('community_id', '=', communityId)
    .where('id', 'in', ids)
    .where('is_archived', '=', false)
    .execute();
  return new Map(rows.map((row) => [row.id, { chat_channel_id: row.chat_channel_id }]));
}

export async function insertEvent(db: Kysely<Database>, row: Insertable<CalendarEventsTable>): Promise<void> {
  await db.insertInto('calendar_events').values(row).execute();
}

export async function updateEvent(
  db: Kysely<Database>,
  communityId: string,
  id: string,
  columns: EventColumns,
): Promise<void> {
  await db
    .updateTable('calendar_events')
    .set(columns)
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .execute();
}

export async function deleteEvent(db: Kysely<Database>, communityId: string, id: string): Promise<void> {
  // Hosts, speakers, tags, publications and the per-feed index go with it (foreign keys cascade).
  await db.deleteFrom('calendar_events').where('community_id', '=', communityId).where('id', '=', id).execute();
}

export async function replacePeople(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  role: 'host' | 'speaker',
  profileIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('event_profiles')
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('role', '=', role)
    .execute();
  if (profileIds.length === 0) return;
  await db
    .insertInto('event_profiles')
    .values(
      profileIds.map((profile_id, position) => ({
        community_id: communityId,
        event_id: eventId,
        role,
        position,
        profile_id,
      })),
    )
    .execute();
}

export async function replaceTags(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  tagIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('event_tags').where('community_id', '=', communityId).where('event_id', '=', eventId).execute();
  if (tagIds.length === 0) return;
  await db
    .insertInto('event_tags')
    .values(tagIds.map((tag_id, position) => ({ community_id: communityId, event_id: eventId, position, tag_id })))
    .execute();
}

export async function replacePublications(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  feeds: readonly { feed_id: string; chat_channel_id: string | null }[],
): Promise<void> {
  // A feed that stays, in the same channel, keeps the link to the message that announced the event there.
  const kept = await db
    .selectFrom('event_publications')
    .select(['feed_id', 'chat_channel_id', 'chat_message_permalink'])
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('chat_message_permalink', 'is not', null)
    .execute();
  await db
    .deleteFrom('event_publications')
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .execute();
  if (feeds.length === 0) return;
  await db
    .insertInto('event_publications')
    .values(
      feeds.map((feed, position) => ({
        community_id: communityId,
        event_id: eventId,
        position,
        feed_id: feed.feed_id,
        chat_channel_id: feed.chat_channel_id,
        chat_message_permalink:
          kept.find((row) => row.feed_id === feed.feed_id && row.chat_channel_id === feed.chat_channel_id)
            ?.chat_message_permalink ?? null,
      })),
    )
    .execute();
}

/** Sets the permalink of the event's publications in a channel where it differs; returns how many rows changed. */
export async function setPermalink(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  channelId: string,
  permalink: string,
): Promise<number> {
  const result = await db
    .updateTable('event_publications')
    .set({ chat_message_permalink: permalink })
    .where('community_id', '=', communityId)
    .where('event_id', '=', eventId)
    .where('chat_channel_id', '=', channelId)
    .where((eb) => eb.or([eb('chat_message_permalink', 'is', null), eb('chat_message_permalink', '!=', permalink)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
