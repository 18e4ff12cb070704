// The rules of creating, changing and deleting calendar events: each write runs through the write runner, whose
// transaction holds the change, its rendered answer (fragments and the per-feed index), the audit record and the
// webhook messages.
import type { Insertable, Kysely } from 'kysely';
import type { AuditAction } from '../audit/audit.service.js';
import type { CalendarEventsTable, Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { AppError, notFound, type FieldProblem } from '../errors.js';
import { answerWithin } from '../fragments/fragment-answer.js';
import type { Answer } from '../fragments/splice.js';
import type { SaveResponse } from '../idempotency/save-response.js';
import { newShortId } from '../lib/ids.js';
import { invalidBody } from '../members/member-input.js';
import { resolveChatUsers } from '../profiles/profiles.repository.js';
import { createDeriver } from '../references/derive.js';
import type { WebhookEventType } from '../webhooks/webhook-types.js';
import type { Actor } from '../writes/actor.js';
import type { Change, WriteRunner } from '../writes/write-runner.js';
import { toEventChanges, type EventChanges } from './event-input.js';
import {
  deleteEvent,
  insertEvent,
  lockEvent,
  publishableFeeds,
  replacePeople,
  replacePublications,
  replaceTags,
  resolvePeople,
  setPermalink,
  tagIdsIn,
  updateEvent,
} from './event-writes.repository.js';
import type { CreateEventBody, UpdateEventBody } from './event-writes.schemas.js';
import type { EventRow } from './events.repository.js';
import { noteCalendarChange } from './event-tombstones.js';

/** Decides whether the If-Match of the request holds for the event's current ETag (as GET shows it). */
export type Precondition = (currentEtag: string) => boolean;

interface Lists {
  hosts?: string[];
  speakers?: string[];
  tags?: string[];
  feeds?: { feed_id: string; chat_channel_id: string | null }[];
}

/** Where a list of people came from: its field (`hosts`, `hosts.slack_user_ids`) and what its references are. */
interface PeopleRefs {
  field: string;
  refs: readonly string[];
  chatUserIdsOnly: boolean;
}

/**
 * The references of `hosts` or `speakers`: an array of profile ids, e-mails or chat user ids, or (hosts, as the
 * hosted product's client builds them, in either field-name mode) `{"slack_user_ids": […]}`.
 */
function peopleRefs(field: string, value: NonNullable<UpdateEventBody['hosts']>): PeopleRefs {
  if (Array.isArray(value)) return { field, refs: value, chatUserIdsOnly: false };
  return { field: `${field}.slack_user_ids`, refs: value.slack_user_ids, chatUserIdsOnly: true };
}

/** The profile ids of hosts or speakers, each named once; unknown references become problems. */
async function people(
  db: Kysely<Database>,
  communityId: string,
  { field, refs, chatUserIdsOnly }: PeopleRefs,
  problems: FieldProblem[],
): Promise<string[]> {
  const found = chatUserIdsOnly
    ? await resolveChatUsers(db, communityId, refs)
    : await resolvePeople(db, communityId, refs);
  const ids: string[] = [];
  refs.forEach((ref, i) => {
    const id = chatUserIdsOnly ? found.get(ref) : (found.get(ref) ?? found.get(ref.trim().toLowerCase()));
    if (id === undefined)
      problems.push({
        field: `${field}.${i}`,
        message: chatUserIdsOnly
          ? `no profile with chat user id '${ref}' in this community`
          : `no profile or member '${ref}' in this community`,
      });
    else if (ids.includes(id)) problems.push({ field: `${field}.${i}`, message: 'names a profile already listed' });
    else ids.push(id);
  });
  return ids;
}

async function resolveLists(
  db: Kysely<Database>,
  communityId: string,
  body: UpdateEventBody,
  problems: FieldProblem[],
): Promise<Lists> {
  const lists: Lists = {};
  if (body.hosts !== undefined) lists.hosts = await people(db, communityId, peopleRefs('hosts', body.hosts), problems);
  if (body.speakers !== undefined)
    lists.speakers = await people(db, communityId, peopleRefs('speakers', body.speakers), problems);
  if (body.tags !== undefined) {
    const known = await tagIdsIn(db, communityId, body.tags);
    body.tags.forEach((id, i) => {
      if (!known.has(id)) problems.push({ field: `tags.${i}`, message: `no tag '${id}' in this community` });
    });
    lists.tags = [...new Set(body.tags)];
  }
  if (body.published_to !== undefined) {
    const feeds = await publishableFeeds(db, communityId, body.published_to);
    lists.feeds = [];
    body.published_to.forEach((id, i) => {
      const feed = feeds.get(id);
      if (!feed)
        problems.push({ field: `published_to.${i}`, message: `no feed '${id}' (not archived) in this community` });
      else if (!lists.feeds?.some((f) => f.feed_id === id))
        lists.feeds?.push({ feed_id: id, chat_channel_id: feed.chat_channel_id });
    });
  }
  return lists;
}

async function writeLists(db: Kysely<Database>, communityId: string, eventId: string, lists: Lists): Promise<void> {
  if (lists.hosts) await replacePeople(db, communityId, eventId, 'host', lists.hosts);
  if (lists.speakers) await replacePeople(db, communityId, eventId, 'speaker', lists.speakers);
  if (lists.tags) await replaceTags(db, communityId, eventId, lists.tags);
  if (lists.feeds) await replacePublications(db, communityId, eventId, lists.feeds);
}

/** References of the rich text a change sets, resolved against the community's profiles and feeds. */
async function deriveReferences(db: Kysely<Database>, communityId: string, changes: EventChanges): Promise<void> {
  if (changes.description === undefined && changes.recap === undefined) return;
  const derive = await createDeriver(db, communityId);
  if (changes.description !== undefined)
    changes.columns.description_chat_blocks_references = derive.references(changes.description);
  if (changes.recap !== undefined)
    changes.columns.recap_chat_blocks_references = derive.references(changes.recap ?? []);
}

const recordOf = (answer: Answer): Record<string, unknown> =>
  (JSON.parse(answer.body.toString('utf8')) as { data: Record<string, unknown> }).data;

export function createEventWritesService(writes: WriteRunner, dialect: StoreDialect) {
  /**
   * Renders the event, audits the change and queues its webhooks: for events that trigger them, and for the update
   * that turns `triggers_webhooks` off (`previous` is the answer before it), the last message receivers get of it.
   */
  async function finish(
    trx: Kysely<Database>,
    change: Change,
    id: string,
    action: AuditAction,
    previous: Answer | null,
  ): Promise<Answer | null> {
    const communityId = change.actor.communityId;
    await change.refresh({ events: [id] });
    const answer = action === 'calendar_event.deleted' ? null : await answerWithin(trx, 'event', communityId, id);
    const before = previous ? recordOf(previous) : null;
    const record = answer ? recordOf(answer) : (before ?? {});
    await change.audit(action, id, { title: record['title'] ?? null });
    if (record['triggers_webhooks'] === true || before?.['triggers_webhooks'] === true)
      await change.announce([{ type: action as WebhookEventType, data: record }]);
    return answer;
  }

  async function locked(
    trx: Kysely<Database>,
    actor: Actor,
    id: string,
    precondition?: Precondition,
  ): Promise<{ row: EventRow; answer: Answer }> {
    const row = await lockEvent(trx, dialect, actor.communityId, id);
    const answer = row ? await answerWithin(trx, 'event', actor.communityId, id) : null;
    if (!row || !answer) throw notFound(`Calendar event '${id}'`);
    if (precondition && !precondition(answer.etag)) throw new AppError('precondition_failed');
    return { row, answer };
  }

  return {
    create(actor: Actor, body: CreateEventBody, saveResponse?: SaveResponse<Answer>): Promise<Answer> {
      return writes.run(actor, async (trx, change) => {
        const changes = toEventChanges(body, null);
        const lists = await resolveLists(trx, actor.communityId, body, changes.problems);
        if (changes.problems.length > 0) throw invalidBody(changes.problems);
        await deriveReferences(trx, actor.communityId, changes);
        const id = newShortId();
        const row = {
          allow_public_guest_list: false,
          enable_registration_button: false,
          is_unlisted: false,
          publish_to_site: false,
          triggers_webhooks: false,
          show_end_date: true,
          use_registration_btn_as_link: false,
          external_speakers: null,
          link: null,
          location: null,
          partner_event_id: null,
          recording_link: null,
          webhook_custom_metadata: null,
          cover_image_url: null,
          recap_chat_blocks: null,
          time_zone: null,
          reminders_config: null,
          attendees_count: 0,
          ...changes.columns,
          community_id: actor.communityId,
          id,
          created_at: change.at,
          updated_at: change.at,
        } as Insertable<CalendarEventsTable>;
        if (changes.recap === undefined)
          row.recap_chat_blocks_references = (await createDeriver(trx, actor.communityId)).references([]);
        await insertEvent(trx, row);
        await writeLists(trx, actor.communityId, id, lists);
        await change.announceInChat(id, 'changed');
        const answer = await finish(trx, change, id, 'calendar_event.created', null);
        if (!answer) throw new Error(`The new event '${id}' has no fragment`);
        if (saveResponse) await saveResponse(trx, answer);
        return answer;
      });
    },

    update(actor: Actor, id: string, body: UpdateEventBody, precondition?: Precondition): Promise<Answer> {
      return writes.run(actor, async (trx, change) => {
        const { row, answer: before } = await locked(trx, actor, id, precondition);
        const changes = toEventChanges(body, row);
        const lists = await resolveLists(trx, actor.communityId, body, changes.problems);
        if (changes.problems.length > 0) throw invalidBody(changes.problems);
        await deriveReferences(trx, actor.communityId, changes);
        await noteCalendarChange(trx, row, { ...row, ...changes.columns }, change.at);
        await updateEvent(trx, actor.communityId, id, { ...changes.columns, updated_at: change.at });
        await writeLists(trx, actor.communityId, id, lists);
        await change.announceInChat(id, 'changed');
        const answer = await finish(trx, change, id, 'calendar_event.updated', before);
        if (!answer) throw new Error(`The event '${id}' has no fragment`);
        return answer;
      });
    },

    async remove(actor: Actor, id: string, precondition?: Precondition): Promise<void> {
      await writes.run(actor, async (trx, change) => {
        const { row, answer } = await locked(trx, actor, id, precondition);
        // Before the rows go: the edit saying it was cancelled is made of its title and time.
        await change.announceInChat(id, 'deleted');
        await noteCalendarChange(trx, row, null, change.at);
        await deleteEvent(trx, actor.communityId, id);
        await finish(trx, change, id, 'calendar_event.deleted', answer);
      });
    },

    /**
     * Fills `published_to[].chat_message_permalink` of the event's publications in `channelId` once its
     * announcement is posted (the Slack sender's write): fragments rendered again, ETag moved, audited as an update
     * and sent as `calendar_event.updated` to the webhooks when the event triggers them. It announces nothing in chat
     * itself (the message already shows the event). False when the event or its publication there is gone, or
     * already holds this link.
     */
    recordPermalink(actor: Actor, id: string, channelId: string, permalink: string): Promise<boolean> {
      return writes.run(actor, async (trx, change) => {
        const row = await lockEvent(trx, dialect, actor.communityId, id);
        const before = row ? await answerWithin(trx, 'event', actor.communityId, id) : null;
        const updated = row ? await setPermalink(trx, actor.communityId, id, channelId, permalink) : 0;
        if (updated === 0) {
          change.unchanged();
          return false;
        }
        await finish(trx, change, id, 'calendar_event.updated', before);
        return true;
      });
    },
  };
}
export type EventWritesService = ReturnType<typeof createEventWritesService>;
