// An iCalendar file into one community, all or nothing, through the one write path: each occurrence upserted
// under an id derived from its UID (and original start), those marked STATUS:CANCELLED removed (leaving their
// tombstones), one audit record and the run's record in the same transaction.
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import type { Insertable, Kysely } from 'kysely';
import { parseHttpUrl } from '../content/urls.js';
import type { CalendarEventsTable, Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { writeJson } from '../db/json.js';
import { noteCalendarChange } from '../events/event-tombstones.js';
import { deleteEvent, insertEvent, updateEvent } from '../events/event-writes.repository.js';
import type { EventRow } from '../events/events.repository.js';
import { beginRun } from '../import/import-run.js';
import type { Clock } from '../lib/clock.js';
import { slugify } from '../lib/slug.js';
import { toStored } from '../lib/timestamps.js';
import { createDeriver } from '../references/derive.js';
import { sourceActor } from '../writes/actor.js';
import type { WriteRunner } from '../writes/write-runner.js';
import { checkLines, FeedError, feedError } from './ical-lines.js';
import { occurrencesOf, type Occurrence } from './ical-occurrences.js';
import type { FeedSource } from './ical-source.js';

export interface CalendarImportSummary {
  /** Occurrences read from the file (cancelled ones included). */
  records: number;
  created: number;
  updated: number;
  removed: number;
}

export type CalendarImportPhase = 'reading' | 'expanding' | 'writing';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The Hearth id of an occurrence: 12 of [a-z0-9] from SHA-256 of its UID and original start, so a second import finds it. */
export function occurrenceId(uid: string, recurrence: string): string {
  const digest = createHash('sha256').update(`${uid}\n${recurrence}`).digest();
  let id = '';
  for (let i = 0; i < 12; i++) id += ALPHABET[(digest[i] ?? 0) % 36];
  return id;
}

/** Plain text as the chat product writes a paragraph (as the API's `description.text` does). */
const textBlocks = (text: string): unknown[] => [
  { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] },
];

/** The columns an occurrence sets; the flags an admin may have changed since (published, on the site) stay. */
function columnsOf(o: Occurrence, name: string) {
  let link: string | null = null;
  if (o.url !== null) {
    if (!parseHttpUrl(o.url)) throw feedError(name, o.line, `URL '${o.url.slice(0, 100)}' is no http(s) address`);
    link = o.url;
  }
  const start = toStored(o.startMs);
  const end = o.endMs === null ? null : toStored(o.endMs);
  return {
    title: o.title,
    start_at: start,
    end_at: end,
    occupied_until: end ?? start,
    time_zone: o.timeZone,
    location: o.location,
    link,
    description_chat_blocks: o.description === null ? null : writeJson(textBlocks(o.description)),
  };
}

function lockedEvents(db: Kysely<Database>, dialect: StoreDialect, communityId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as EventRow[]);
  let query = db
    .selectFrom('calendar_events')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', 'in', ids);
  if (dialect.rowLocks) query = query.forUpdate();
  return query.execute();
}

/** The file's events, read and checked whole before anything is written. */
export function readOccurrences(source: FeedSource, now: number): Occurrence[] {
  const lines = checkLines(source.text, source.name);
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(source.text));
  } catch (error) {
    throw feedError(source.name, 1, error instanceof Error ? error.message : String(error));
  }
  const zones = calendar.getAllSubcomponents('vtimezone');
  const registered: string[] = [];
  try {
    for (const zone of zones) {
      const tzid = String(zone.getFirstPropertyValue('tzid') ?? '');
      if (tzid === '') throw new FeedError(`${source.name}: a VTIMEZONE without a TZID`);
      ICAL.TimezoneService.register(zone);
      registered.push(tzid);
    }
    return occurrencesOf(calendar, lines, source.name, now);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    // ical.js refusing something no line was found for: the file is named, and the refusal said as it is.
    throw new FeedError(`${source.name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    // The service is process-wide: another file's zone of the same name must not meet this one's.
    for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
  }
}

export async function importCalendar(
  db: Kysely<Database>,
  dialect: StoreDialect,
  writes: WriteRunner,
  clock: Clock,
  communityId: string,
  source: FeedSource,
  onProgress: (phase: CalendarImportPhase, records: number) => void = () => {},
): Promise<CalendarImportSummary> {
  const run = beginRun(clock, communityId, 'ical', source.origin);
  try {
    onProgress('reading', 0);
    const occurrences = readOccurrences(source, clock());
    run.records = occurrences.length;
    onProgress('expanding', occurrences.length);
    // The last word on an occurrence is the file's last VEVENT for it.
    const byId = new Map<string, Occurrence>();
    for (const o of occurrences) byId.set(occurrenceId(o.uid, o.recurrence), o);
    onProgress('writing', occurrences.length);
    return await writes.run(sourceActor(communityId, 'import'), async (trx, change) => {
      const existing = new Map(
        (await lockedEvents(trx, dialect, communityId, [...byId.keys()])).map((row) => [row.id, row]),
      );
      const derive = await createDeriver(trx, communityId);
      const summary: CalendarImportSummary = { records: occurrences.length, created: 0, updated: 0, removed: 0 };
      const touched: string[] = [];
      for (const [id, o] of byId) {
        const row = existing.get(id);
        if (o.cancelled) {
          if (!row) continue;
          await noteCalendarChange(trx, row, null, change.at);
          await deleteEvent(trx, communityId, id);
          summary.removed++;
          touched.push(id);
          continue;
        }
        const columns = columnsOf(o, source.name);
        const references = derive.references(o.description === null ? [] : textBlocks(o.description));
        if (row) {
          await updateEvent(trx, communityId, id, {
            ...columns,
            description_chat_blocks_references: references,
            updated_at: change.at,
          });
          summary.updated++;
        } else {
          const fresh: Insertable<CalendarEventsTable> = {
            ...columns,
            community_id: communityId,
            id,
            created_at: change.at,
            updated_at: change.at,
            slug: o.title === null ? null : slugify(o.title),
            status: 'published',
            publish_to_site: true,
            is_unlisted: false,
            allow_public_guest_list: false,
            enable_registration_button: false,
            triggers_webhooks: false,
            show_end_date: true,
            use_registration_btn_as_link: false,
            description_chat_blocks_references: references,
            recap_chat_blocks: null,
            recap_chat_blocks_references: derive.references([]),
            external_speakers: null,
            partner_event_id: null,
            recording_link: null,
            webhook_custom_metadata: null,
            cover_image_url: null,
            reminders_config: null,
            attendees_count: 0,
          };
          await insertEvent(trx, fresh);
          summary.created++;
        }
        touched.push(id);
      }
      if (touched.length > 0) await change.refresh({ events: touched });
      await change.audit('import.completed', communityId, { source: 'ical', origin: source.origin, ...summary });
      await change.announce([{ type: 'import.completed', data: { source: 'ical', ...summary } }]);
      await run.completed(trx, {
        records: summary.records,
        feeds: 0,
        profiles: 0,
        tags: 0,
        calendar_events: summary.created + summary.updated + summary.removed,
        posts: 0,
        comments: 0,
      });
      return summary;
    });
  } catch (error) {
    await run.ended(db, error, false);
    throw error;
  }
}
