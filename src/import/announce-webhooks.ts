// Webhooks of an import: the same event types as changes made through the API (calendar_event.* for events
// that trigger webhooks, member.* for profiles, member.badge_assigned for badges given, group.members_changed for
// groups whose members changed), then import.completed with the counts per kind, all queued in the import's own
// transaction (the write runner's). The import calls `importWebhooks` before writing and `emit` after.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { badgeAssigned } from '../badges/badge-messages.js';
import { badgesByIds, holdersOf } from '../badges/badges.repository.js';
import { answerWithin } from '../fragments/fragment-answer.js';
import { toGroups } from '../groups/group.mapper.js';
import { groupMembersChanged, type MemberRef } from '../groups/group-messages.js';
import { groupsByIds, membersOf } from '../groups/groups.repository.js';
import { toMember } from '../members/member.mapper.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import { chunk, existingIds } from '../db/batch.js';
import { anyListens, type OutgoingEvent } from '../webhooks/webhook-outbox.js';
import { subscribes } from '../webhooks/webhook-types.js';
import type { Change } from '../writes/write-runner.js';

/** A chunk of rows as the import writes them, as far as webhooks care. */
export interface ImportedChunk {
  events: readonly Record<string, unknown>[];
  profiles: readonly Record<string, unknown>[];
  badges: readonly Record<string, unknown>[];
  groups: readonly Record<string, unknown>[];
}

/** Of `ids`, the events the store holds that trigger webhooks. */
async function triggeringEvents(db: Kysely<Database>, communityId: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunk(ids, 5000)) {
    const rows = await db
      .selectFrom('calendar_events')
      .select('id')
      .where('community_id', '=', communityId)
      .where('id', 'in', part)
      .where('triggers_webhooks', '=', true)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

const triggers = (row: Record<string, unknown>) => row['triggers_webhooks'] === true || row['triggers_webhooks'] === 1;

/**
 * The webhooks of one import, inside its transaction `db`: `note` each chunk before it is written (which of its
 * records the store held already), then `emit` once everything is written and rendered.
 */
export async function importWebhooks(db: Kysely<Database>, change: Change) {
  const communityId = change.actor.communityId;
  const hooks = await change.listeners();
  const wantsEvents = anyListens(hooks, ['calendar_event.created', 'calendar_event.updated']);
  const wantsMembers = anyListens(hooks, ['member.created', 'member.updated']);
  const wantsBadges = anyListens(hooks, ['member.badge_assigned']);
  const wantsGroups = anyListens(hooks, ['group.members_changed']);
  /** Id → whether the store held it before the import; the first chunk that names it decides. */
  const events = new Map<string, boolean>();
  const profiles = new Map<string, boolean>();
  /** Id → its members in the store before the import (the holders of a badge by profile id). */
  const badges = new Map<string, Set<string>>();
  const groups = new Map<string, MemberRef[]>();
  const fresh = (seen: Map<string, unknown>, ids: string[]) => [...new Set(ids)].filter((id) => !seen.has(id));
  const idsOf = (rows: readonly Record<string, unknown>[]) => rows.map((row) => String(row['id']));

  return {
    async note(rows: ImportedChunk): Promise<void> {
      if (wantsEvents) {
        const ids = fresh(
          events,
          rows.events.filter(triggers).map((row) => String(row['id'])),
        );
        const before = ids.length > 0 ? await existingIds(db, 'calendar_events', communityId, ids) : new Set<string>();
        for (const id of ids) events.set(id, before.has(id));
        // An event that triggered webhooks and is turned off: its update is the last message receivers get of it.
        const quiet = fresh(
          events,
          rows.events.filter((row) => !triggers(row)).map((row) => String(row['id'])),
        );
        const silenced = quiet.length > 0 ? await triggeringEvents(db, communityId, quiet) : new Set<string>();
        for (const id of silenced) events.set(id, true);
      }
      if (wantsMembers) {
        const ids = fresh(
          profiles,
          rows.profiles.map((row) => String(row['id'])),
        );
        const before = ids.length > 0 ? await existingIds(db, 'profiles', communityId, ids) : new Set<string>();
        for (const id of ids) profiles.set(id, before.has(id));
      }
      if (wantsBadges) {
        const ids = fresh(badges, idsOf(rows.badges));
        for (const id of ids) badges.set(id, new Set());
        for (const holder of await holdersOf(db, communityId, ids)) badges.get(holder.badge_id)?.add(holder.profile_id);
      }
      if (wantsGroups) {
        const ids = fresh(groups, idsOf(rows.groups));
        for (const id of ids) groups.set(id, []);
        for (const member of await membersOf(db, communityId, ids)) groups.get(member.group_id)?.push(member);
      }
    },

    /** Queues the import's messages inside its transaction, `counts` (records by kind) for import.completed; returns how many. */
    async emit(counts: Record<string, number>): Promise<number> {
      if (hooks.length === 0) return 0;
      const outgoing: OutgoingEvent[] = [];
      for (const [id, existed] of events) {
        const answer = await answerWithin(db, 'event', communityId, id);
        if (!answer) continue;
        const data = (JSON.parse(answer.body.toString('utf8')) as { data: unknown }).data;
        outgoing.push({ type: existed ? 'calendar_event.updated' : 'calendar_event.created', data });
      }
      for (const part of chunk([...profiles.keys()], 5000)) {
        for (const row of (await profilesByIds(db, communityId, part)).values()) {
          outgoing.push({ type: profiles.get(row.id) ? 'member.updated' : 'member.created', data: toMember(row) });
        }
      }
      for (const part of chunk([...badges.keys()], 5000)) {
        const rows = new Map((await badgesByIds(db, communityId, part)).map((row) => [row.id, row]));
        const gained = (await holdersOf(db, communityId, part)).filter(
          (holder) => !badges.get(holder.badge_id)?.has(holder.profile_id),
        );
        const holders = await profilesByIds(
          db,
          communityId,
          gained.map((holder) => holder.profile_id),
        );
        for (const holder of gained) {
          const badge = rows.get(holder.badge_id);
          const profile = holders.get(holder.profile_id);
          if (badge && profile) outgoing.push(badgeAssigned(badge, profile, holder.assigned_at));
        }
      }
      for (const part of chunk([...groups.keys()], 5000)) {
        const after = toGroups(await groupsByIds(db, communityId, part), await membersOf(db, communityId, part));
        for (const group of after) {
          const message = groupMembersChanged(groups.get(group.id) ?? [], group);
          if (message) outgoing.push(message);
        }
      }
      if (hooks.some((hook) => subscribes(hook.event_types, 'import.completed')))
        outgoing.push({ type: 'import.completed', data: counts });
      return change.announce(outgoing);
    },
  };
}
