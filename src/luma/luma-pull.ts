// `hearth luma pull`: every event of a Luma calendar (its list, page by page, and each event's hosts) fetched first,
// then written in one change of the write runner (actor source `luma`), all or nothing. Events are keyed by
// `partner_event_id` (Luma's `evt-…` id), or an id derived from it, so a second pull updates and never duplicates.
import { createHash } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { CalendarEventsTable, Database } from '../db/database.js';
import { readJson, writeJson } from '../db/json.js';
import { replacePeople } from '../events/event-writes.repository.js';
import { textBlocks } from '../events/event-input.js';
import type { EventRow } from '../events/events.repository.js';
import { answerWithin } from '../fragments/fragment-answer.js';
import { newUuid } from '../lib/ids.js';
import { slugify } from '../lib/slug.js';
import { upsertMember } from '../members/members.repository.js';
import { createDeriver } from '../references/derive.js';
import { sourceActor } from '../writes/actor.js';
import type { Change, WriteRunner } from '../writes/write-runner.js';
import { LumaError, type LumaClient } from './luma-api.js';
import { eventOf, hostsOf, mapLumaEvent, type LumaHost, type MappedLumaEvent } from './luma-event.js';
import { eventById, eventsByPartnerIds, hostIdsOf, profilesByEmail } from './luma-events.repository.js';

export interface LumaPullResult {
  events: number;
  created: number;
  updated: number;
  unchanged: number;
  hostsAdded: number;
}

export interface LumaPullOptions {
  writes: WriteRunner;
  client: LumaClient;
  communityId: string;
  /** A line per stage, for the command line. */
  progress?: (line: string) => void;
  signal?: AbortSignal;
}

interface Fetched {
  event: MappedLumaEvent;
  hosts: LumaHost[];
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A Hearth id (12 of [a-z0-9]) derived from the Luma id: the same event gets the same id in every pull. */
export function eventIdFor(lumaId: string): string {
  const digest = createHash('sha256').update(`luma:${lumaId}`).digest();
  let id = '';
  for (let i = 0; i < 12; i++) id += ALPHABET[(digest[i] ?? 0) % ALPHABET.length];
  return id;
}

/** Every entry of the calendar, by cursor, and each Luma-managed event's hosts; a bad entry stops the pull. */
async function fetchAll(
  client: LumaClient,
  progress: (line: string) => void,
  signal?: AbortSignal,
): Promise<Fetched[]> {
  const mapped: { event: MappedLumaEvent; external: boolean }[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    signal?.throwIfAborted();
    const { entries, hasMore, nextCursor } = await client.listEvents(cursor);
    entries.forEach((entry, i) => {
      const event = eventOf(entry);
      const result = event ? mapLumaEvent(event) : 'is not an object';
      if (typeof result === 'string') problems.push(`page ${page}, entry ${i + 1}: ${result}`);
      else if (!seen.has(result.lumaId)) {
        seen.add(result.lumaId);
        mapped.push({ event: result, external: event?.['platform'] === 'external' });
      }
    });
    progress(`  page ${page}: ${entries.length} events`);
    if (!hasMore) break;
    if (nextCursor === null || nextCursor === cursor)
      throw new LumaError(`Page ${page} says has_more but gives no new next_cursor; stopped, nothing written.`);
    cursor = nextCursor;
  }
  if (problems.length > 0)
    throw new LumaError(`Luma answered events Hearth cannot keep; nothing written:\n  ${problems.join('\n  ')}`);
  const fetched: Fetched[] = [];
  for (const { event, external } of mapped) {
    signal?.throwIfAborted();
    // Events listed from another platform have no admin view on Luma: no hosts to match.
    fetched.push({ event, hosts: external ? [] : hostsOf(await client.getEvent(event.lumaId)) });
  }
  return fetched;
}

/** The columns Luma decides; everything else (status, booleans, tags, feeds) stays as the community set it. */
function lumaColumns(event: MappedLumaEvent) {
  return {
    title: event.title,
    start_at: event.startAt,
    end_at: event.endAt,
    occupied_until: event.endAt ?? event.startAt,
    time_zone: event.timeZone,
    link: event.link,
    location: event.location,
    cover_image_url: event.coverImageUrl,
    partner_event_id: event.lumaId,
    is_unlisted: event.isUnlisted,
    description_chat_blocks: writeJson(textBlocks(event.description)),
  };
}

/** JSON with every object's keys sorted: PostgreSQL's jsonb keeps keys in an order of its own. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const sameColumns = (row: EventRow, columns: ReturnType<typeof lumaColumns>): boolean =>
  Object.entries(columns).every(([key, value]) => {
    const current = row[key as keyof EventRow];
    if (typeof value === 'boolean') return Boolean(current) === value;
    if (key === 'description_chat_blocks')
      return current !== null && canonical(readJson(current)) === canonical(JSON.parse(value as string));
    return current === value;
  });

/** Host profile ids in Luma's order: matched by e-mail, or added as members. */
async function hostProfiles(
  trx: Kysely<Database>,
  change: Change,
  fetched: readonly Fetched[],
): Promise<{ ids: Map<string, string>; added: string[] }> {
  const communityId = change.actor.communityId;
  const emails = [...new Set(fetched.flatMap((f) => f.hosts.map((h) => h.email.toLowerCase())))];
  const ids = await profilesByEmail(trx, communityId, emails);
  const added: string[] = [];
  for (const item of fetched)
    for (const host of item.hosts) {
      const key = host.email.toLowerCase();
      if (ids.has(key)) continue;
      const [first, ...rest] = (host.name ?? '').split(' ').filter(Boolean);
      const firstName = host.firstName ?? first ?? host.email.slice(0, host.email.indexOf('@'));
      const lastName = host.lastName ?? (rest.join(' ') || null);
      const { row } = await upsertMember(trx, {
        communityId,
        newId: newUuid(),
        email: host.email,
        emailKey: key,
        firstName,
        lastName: lastName ?? '',
        preferredName: host.name ?? [firstName, lastName].filter(Boolean).join(' '),
        avatar: host.avatarUrl,
        at: change.at,
      });
      ids.set(key, row.id);
      added.push(row.id);
      await change.audit('member.created', row.id, { email: row.email, source: 'luma' });
    }
  return { ids, added };
}

export async function pullLuma(options: LumaPullOptions): Promise<LumaPullResult> {
  const { writes, client, communityId } = options;
  const progress = options.progress ?? (() => {});
  progress(`Reading the calendar's events from ${client.root}`);
  const fetched = await fetchAll(client, progress, options.signal);
  options.signal?.throwIfAborted();
  return writes.run(sourceActor(communityId, 'luma'), async (trx, change) => {
    const result: LumaPullResult = { events: fetched.length, created: 0, updated: 0, unchanged: 0, hostsAdded: 0 };
    const known = await eventsByPartnerIds(
      trx,
      communityId,
      fetched.map((f) => f.event.lumaId),
    );
    const hosts = await hostProfiles(trx, change, fetched);
    result.hostsAdded = hosts.added.length;
    const derive = await createDeriver(trx, communityId);
    const touched: string[] = [];
    const updatedHooked: string[] = [];
    for (const { event, hosts: eventHosts } of fetched) {
      const columns = lumaColumns(event);
      const hostIds = eventHosts.flatMap((h) => hosts.ids.get(h.email.toLowerCase()) ?? []);
      const references = derive.references(textBlocks(event.description));
      const derivedId = eventIdFor(event.lumaId);
      const row = known.get(event.lumaId) ?? (await eventById(trx, communityId, derivedId));
      if (!row) {
        await trx
          .insertInto('calendar_events')
          .values({
            allow_public_guest_list: false,
            enable_registration_button: false,
            publish_to_site: false,
            triggers_webhooks: false,
            show_end_date: true,
            use_registration_btn_as_link: false,
            external_speakers: null,
            recording_link: null,
            webhook_custom_metadata: null,
            recap_chat_blocks: null,
            recap_chat_blocks_references: derive.references([]),
            reminders_config: null,
            attendees_count: 0,
            status: 'published',
            slug: slugify(event.title),
            ...columns,
            description_chat_blocks_references: references,
            community_id: communityId,
            id: derivedId,
            created_at: change.at,
            updated_at: change.at,
          } as Insertable<CalendarEventsTable>)
          .execute();
        await replacePeople(trx, communityId, derivedId, 'host', hostIds);
        await change.audit('calendar_event.created', derivedId, { title: event.title, source: 'luma' });
        touched.push(derivedId);
        result.created++;
        continue;
      }
      // Hosts are replaced only when Luma names some with an e-mail; else those set here stay.
      const currentHosts = await hostIdsOf(trx, communityId, row.id);
      const hostsSame = hostIds.length === 0 || currentHosts.join() === hostIds.join();
      if (sameColumns(row, columns) && hostsSame) {
        result.unchanged++;
        continue;
      }
      await trx
        .updateTable('calendar_events')
        .set({ ...columns, description_chat_blocks_references: references, updated_at: change.at })
        .where('community_id', '=', communityId)
        .where('id', '=', row.id)
        .execute();
      if (!hostsSame) await replacePeople(trx, communityId, row.id, 'host', hostIds);
      await change.audit('calendar_event.updated', row.id, { title: event.title, source: 'luma' });
      touched.push(row.id);
      if (row.triggers_webhooks) updatedHooked.push(row.id);
      result.updated++;
    }
    if (touched.length > 0 || hosts.added.length > 0) await change.refresh({ events: touched, profiles: hosts.added });
    else change.unchanged();
    // As an update through the API does: the event as GET answers it, to the events that trigger webhooks.
    const messages = [];
    for (const id of updatedHooked) {
      const answer = await answerWithin(trx, 'event', communityId, id);
      if (answer)
        messages.push({
          type: 'calendar_event.updated' as const,
          data: (JSON.parse(answer.body.toString('utf8')) as { data: unknown }).data,
        });
    }
    if (messages.length > 0) await change.announce(messages);
    return result;
  });
}
