// Exporting one community in the import format, in keyset-paged batches so memory stays flat.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import { readJson } from '../db/json.js';
import { groupEventLists, toCalendarEvent } from '../events/event.mapper.js';
import { eventProfiles, eventPublications, eventTags } from '../events/events.repository.js';
import { toFeed } from '../feeds/feed.mapper.js';
import { toWire } from '../lib/timestamps.js';
import { toProfile } from '../profiles/profile.mapper.js';

const BATCH = 1000;
type Table = 'feeds' | 'profiles' | 'tags' | 'calendar_events' | 'posts' | 'comments';

async function* rowsOf<T extends Table>(db: Kysely<Database>, table: T, communityId: string) {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom(table as Table)
      .selectAll()
      .where('community_id', '=', communityId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    yield rows as unknown as Selectable<Database[T]>[];
    after = rows[rows.length - 1]?.id ?? after;
    if (rows.length < BATCH) return;
  }
}

/** Every record of the community as import-format objects, dependencies first. */
export async function* exportRecords(db: Kysely<Database>, communityId: string): AsyncGenerator<Record<string, unknown>> {
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
    for (const t of rows) yield { kind: 'tag', id: t.id, created_at: toWire(t.created_at), tag_group_id: t.tag_group_id, label: t.label };
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
    for (const p of rows) {
      yield {
        kind: 'post',
        id: p.id,
        created_at: toWire(p.created_at),
        updated_at: toWire(p.updated_at),
        content_created_at: toWire(p.content_created_at),
        latest_activity_at: toWire(p.latest_activity_at),
        title: p.title,
        slug: p.slug,
        feed_id: p.feed_id,
        post_detail_display_format: p.post_detail_display_format,
        author_profile_id: p.author_profile_id,
        read_time_minutes: Number(p.read_time_minutes),
        source: p.source,
        file_attachments_count: Number(p.file_attachments_count),
        reactions_count: Number(p.reactions_count),
        comments_count: Number(p.comments_count),
        body_plaintext: p.body_plaintext,
        body_prosemirror: readJson(p.body_prosemirror),
        chat_message: readJson(p.chat_message),
        cover_image_file_id: p.cover_image_file_id,
        cover_image_url: p.cover_image_url,
        references: readJson(p.references),
      };
    }
  }
  for await (const rows of rowsOf(db, 'comments', communityId)) {
    for (const c of rows) {
      yield {
        kind: 'comment',
        id: c.id,
        created_at: toWire(c.created_at),
        updated_at: toWire(c.updated_at),
        parent_post_id: c.post_id,
        parent_comment_id: c.parent_comment_id,
        author_profile_id: c.author_profile_id,
        body_plaintext: c.body_plaintext,
        chat_message: readJson(c.chat_message),
        reactions_count: Number(c.reactions_count),
        file_attachments_count: Number(c.file_attachments_count),
        references: readJson(c.references),
      };
    }
  }
}
