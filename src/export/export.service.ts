// Exporting one community in the import format, through the features' mappers, in batches (export.repository.ts).
import type { Kysely } from 'kysely';
import { toBadges } from '../badges/badge.mapper.js';
import { holdersOf } from '../badges/badges.repository.js';
import type { Database } from '../db/database.js';
import { readJson } from '../db/json.js';
import { groupEventLists, toCalendarEvent, toTag } from '../events/event.mapper.js';
import { eventProfiles, eventPublications, eventTags } from '../events/events.repository.js';
import { toFeed } from '../feeds/feed.mapper.js';
import { toGroups } from '../groups/group.mapper.js';
import { membersOf } from '../groups/groups.repository.js';
import { toWire } from '../lib/timestamps.js';
import { toCommentRecord, toPostRecord } from '../posts/post.mapper.js';
import { toProfile } from '../profiles/profile.mapper.js';
import { rowsOf } from './export.repository.js';

/** Every record of the community as import-format objects, dependencies first. */
export async function* exportRecords(
  db: Kysely<Database>,
  communityId: string,
): AsyncGenerator<Record<string, unknown>> {
  for await (const rows of rowsOf(db, 'feeds', communityId)) {
    for (const f of rows) {
      const { id, label, slug, is_archived, is_unlisted, ...rest } = toFeed(f);
      yield { kind: 'feed', id, created_at: toWire(f.created_at), label, slug, is_archived, is_unlisted, ...rest };
    }
  }
  for await (const rows of rowsOf(db, 'profiles', communityId)) {
    for (const p of rows) yield { kind: 'profile', ...toProfile(p) };
  }
  for await (const rows of rowsOf(db, 'tags', communityId)) {
    for (const t of rows) yield { kind: 'tag', ...toTag(t) };
  }
  // Badges and groups as the API shows them, with their members (the members' chat user ids are read back from
  // their profiles, not from here).
  for await (const rows of rowsOf(db, 'badges', communityId)) {
    const ids = rows.map((r) => r.id);
    for (const badge of toBadges(rows, await holdersOf(db, communityId, ids))) yield { kind: 'badge', ...badge };
  }
  for await (const rows of rowsOf(db, 'groups', communityId)) {
    const ids = rows.map((r) => r.id);
    for (const group of toGroups(rows, await membersOf(db, communityId, ids))) yield { kind: 'group', ...group };
  }
  for await (const rows of rowsOf(db, 'calendar_events', communityId)) {
    const ids = rows.map((r) => r.id);
    const lists = groupEventLists(
      await eventProfiles(db, communityId, ids),
      await eventTags(db, communityId, ids),
      await eventPublications(db, communityId, ids),
    );
    for (const row of rows) {
      const event = toCalendarEvent(row, lists.get(row.id));
      yield {
        kind: 'calendar_event',
        ...event,
        timezone: row.time_zone,
        ...(row.reminders_config === null ? {} : { reminders_config: readJson(row.reminders_config) }),
        hosts: event.hosts.map((h) => h.profile_id),
        speakers: event.speakers.map((s) => s.profile_id),
        tags: event.tags.map((t) => t.id),
      };
    }
  }
  for await (const rows of rowsOf(db, 'posts', communityId)) {
    for (const p of rows) yield { kind: 'post', ...toPostRecord(p) };
  }
  for await (const rows of rowsOf(db, 'comments', communityId)) {
    for (const c of rows) yield { kind: 'comment', ...toCommentRecord(c) };
  }
}
