// Webhooks of an import: the same event types as changes made through the API (calendar_event.* for events
// that trigger webhooks, member.* for profiles), then import.completed with the counts per kind, all queued in
// the import's own transaction. The import calls `importWebhooks` before writing and `emit` after.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { answerWithin } from '../fragments/fragment-answer.js';
import { nowStored } from '../lib/timestamps.js';
import { toMember } from '../members/member.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import { chunk, existingIds } from '../transfer/batch.js';
import { anyListens, enqueue, listeners, type OutgoingEvent } from './webhook-outbox.js';
import { subscribes } from './webhook-types.js';

/** What an import plan holds, as far as webhooks care. */
export interface ImportedRecords {
  events: Map<string, { row: { id: string; triggers_webhooks?: boolean } }>;
  profiles: Map<string, unknown>;
  feeds: Map<string, unknown>;
  tags: Map<string, unknown>;
  posts: Map<string, unknown>;
  comments: Map<string, unknown>;
  records: number;
}

async function existingEvents(db: Kysely<Database>, communityId: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunk(ids, 5000)) {
    const rows = await db.selectFrom('calendar_events').select('id').where('community_id', '=', communityId).where('id', 'in', part).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Notes which records existed before the import; `emit` then queues the messages once everything is written. */
export async function importWebhooks(db: Kysely<Database>, communityId: string, plan: ImportedRecords) {
  const hooks = await listeners(db, communityId);
  const wantsEvents = anyListens(hooks, ['calendar_event.created', 'calendar_event.updated']);
  const wantsMembers = anyListens(hooks, ['member.created', 'member.updated']);
  const triggering = wantsEvents ? [...plan.events.values()].filter((e) => e.row.triggers_webhooks).map((e) => e.row.id) : [];
  const eventsBefore = triggering.length > 0 ? await existingEvents(db, communityId, triggering) : new Set<string>();
  const profileIds = wantsMembers ? [...plan.profiles.keys()] : [];
  const profilesBefore = profileIds.length > 0 ? await existingIds(db, 'profiles', communityId, profileIds) : new Set<string>();

  return {
    /** Queues the import's messages inside its transaction; returns how many. */
    async emit(): Promise<number> {
      if (hooks.length === 0) return 0;
      const outgoing: OutgoingEvent[] = [];
      for (const id of triggering) {
        const answer = await answerWithin(db, 'event', communityId, id);
        if (!answer) continue;
        const data = (JSON.parse(answer.body.toString('utf8')) as { data: unknown }).data;
        outgoing.push({ type: eventsBefore.has(id) ? 'calendar_event.updated' : 'calendar_event.created', data });
      }
      for (const part of chunk(profileIds, 5000)) {
        for (const row of (await profilesByIds(db, communityId, part)).values()) {
          outgoing.push({ type: profilesBefore.has(row.id) ? 'member.updated' : 'member.created', data: toMember(row) });
        }
      }
      if (hooks.some((hook) => subscribes(hook.event_types, 'import.completed'))) {
        const counts = {
          records: plan.records,
          feeds: plan.feeds.size,
          profiles: plan.profiles.size,
          tags: plan.tags.size,
          calendar_events: plan.events.size,
          posts: plan.posts.size,
          comments: plan.comments.size,
        };
        outgoing.push({ type: 'import.completed', data: counts });
      }
      return enqueue(db, communityId, hooks, outgoing, nowStored());
    },
  };
}
