// Demo calendar events: past, ongoing and upcoming, in several time zones, with hosts, tags, feeds and rich descriptions.
import type { EventRecord } from '../import/records.js';
import {
  emoji,
  list,
  quote,
  richText,
  section,
  text,
  user,
  channel,
  link,
  type Inline,
  type RichText,
} from './blocks.js';
import { DAY, HOUR, isoInZone, moment, permalink, wire } from './clock.js';
import { someEmoji, someone, slugOf } from './content.js';
import { daylightSavingEvents, localTiming, ongoingEvents, zoneFor, ZONES, type EventSpec } from './event-times.js';
import { VENUES } from './names.js';
import { capitalize, type TextGen } from './text.js';
import { feedOfKind, tagIds, type DemoProfile, type TagKey, type World } from './world.js';

export type EventLine = EventRecord & { kind: 'calendar_event' };
type Status = NonNullable<EventRecord['status']>;

interface Template {
  title: (g: TextGen) => string;
  tags: TagKey[];
  hours: readonly number[];
  online: number;
  /** Whole days, for conferences; 0 for a session within one day. */
  days?: number;
  /** Chance of no end date (0.1 when absent): drop-in formats are often listed by start time alone. */
  openEnded?: number;
}

const TEMPLATES: readonly Template[] = [
  {
    title: (g) => `Workshop: Intro to ${g.topic()}`,
    tags: ['workshop', 'engineering', 'beginner'],
    hours: [2, 3],
    online: 0.4,
  },
  { title: (g) => `${capitalize(g.topic())} Meetup`, tags: ['meetup'], hours: [2, 3], online: 0.1, openEnded: 0.2 },
  { title: (g) => `AMA with ${g.firstName()} from ${g.company()}`, tags: ['ama', 'career'], hours: [1], online: 1 },
  { title: (g) => `Office Hours: ${g.topic()}`, tags: ['webinar', 'beginner'], hours: [1], online: 1, openEnded: 0.3 },
  { title: () => 'Community Coffee Chat', tags: ['meetup', 'members'], hours: [1], online: 0.7, openEnded: 0.5 },
  { title: () => 'Show & Tell Night', tags: ['meetup', 'engineering'], hours: [2], online: 0.5 },
  { title: (g) => `Book Club: "The ${g.adj()} ${g.noun()}"`, tags: ['meetup', 'members'], hours: [1.5], online: 0.6 },
  { title: (g) => `Webinar: ${g.topic()} in practice`, tags: ['webinar', 'engineering'], hours: [1], online: 1 },
  { title: (g) => `Hack Night: ${g.codename()}`, tags: ['engineering', 'meetup'], hours: [3, 4], online: 0.2 },
  { title: (g) => `Lightning Talks: ${g.topic()}`, tags: ['meetup', 'engineering'], hours: [2], online: 0.3 },
  { title: (g) => `Career Clinic: ${g.role()} edition`, tags: ['career', 'workshop'], hours: [1.5], online: 0.8 },
  { title: () => 'Design Critique', tags: ['design', 'workshop'], hours: [1], online: 0.6 },
  {
    title: (g) => `${capitalize(g.topic())} Summit`,
    tags: ['engineering', 'design'],
    hours: [8],
    online: 0.2,
    days: 2,
  },
];

function pickStatus(g: TextGen, upcoming: boolean): Status {
  return upcoming
    ? g.random.weighted<Status>([
        ['published', 6],
        ['draft', 2],
        ['needs_approval', 2],
      ])
    : g.random.weighted<Status>([
        ['published', 12],
        ['draft', 1],
        ['needs_approval', 1],
      ]);
}

function description(
  world: World,
  g: TextGen,
  spec: EventSpec,
  hosts: DemoProfile[],
  registration: string | null,
): RichText[] {
  const r = g.random;
  const host = hosts[0];
  const hostedBy: Inline[] = host ? [text('Hosted by '), user(host.chatUserId), text('.')] : [];
  if (!world.rich) return [richText(section(text(`${g.sentences(r.between(1, 2))} `), ...hostedBy))];
  const eventsFeed = feedOfKind(world, 'events');
  const containers = [
    section(text(`${g.sentences(2)} `), someEmoji(r)),
    section(text("What we'll cover", { bold: true })),
    list(
      'bullet',
      Array.from({ length: r.between(2, 4) }, () => [text(g.phrase())]),
    ),
    section(
      ...hostedBy,
      ...(eventsFeed ? [text(' Questions? Ask in '), channel(eventsFeed.channelId), text('.')] : []),
    ),
  ];
  if (r.chance(0.3)) containers.push(quote(text(g.sentence())));
  if (registration) containers.push(section(link(registration, 'Save your seat'), text(' '), someEmoji(r)));
  if (spec.city) containers.push(section(text(`Where: ${spec.city}. `), emoji('round_pushpin', '1f4cd')));
  return [richText(...containers)];
}

function recap(world: World, g: TextGen, hosts: DemoProfile[], recording: string | null): RichText[] {
  const r = g.random;
  if (!world.rich) return [richText(section(text(`Thanks for coming! ${g.sentence()}`)))];
  const host = hosts[0];
  return [
    richText(
      section(text('Thanks to everyone who came! '), emoji('raised_hands', '1f64c')),
      ...(recording ? [section(text('Recording: '), link(recording))] : []),
      section(text('Key takeaways', { bold: true })),
      list(
        'ordered',
        Array.from({ length: r.between(2, 3) }, () => [text(g.phrase())]),
      ),
      ...(host ? [section(text('Shout-out to '), user(host.chatUserId), text(' for hosting.'))] : []),
    ),
  ];
}

function eventRecord(world: World, g: TextGen, spec: EventSpec, fixedStatus?: Status): EventLine {
  const r = g.random;
  const now = world.now;
  const id = world.ids.next();
  const upcoming = spec.start > now;
  const over = (spec.end ?? spec.start) < now;
  const status = fixedStatus ?? pickStatus(g, upcoming);
  const created = Math.min(spec.start - r.between(3, 40) * DAY, now - r.between(1, 48) * HOUR) - r.int(HOUR);
  const updated = created + r.next() * Math.max(0, Math.min(now, spec.start) - created) * 0.5;
  const hosts = [r.chance(0.5) ? r.pick(world.admins.length > 0 ? world.admins : world.members) : someone(world, r)];
  const cohost = someone(world, r);
  if (r.chance(0.3) && !hosts.includes(cohost)) hosts.push(cohost);
  const speaker = someone(world, r);
  const speakers = r.chance(0.5) && !hosts.includes(speaker) ? [speaker] : [];
  const webhooks = r.chance(0.25);
  const online = spec.city === null;
  const registration = r.chance(0.6) ? `https://events.example.com/e/${slugOf(spec.title)}-${id.slice(0, 6)}` : null;
  const recording = over && r.chance(0.5) ? `https://videos.example.com/recordings/${id}.mp4` : null;
  const publishedTo =
    status === 'published'
      ? [feedOfKind(world, 'events'), r.chance(0.3) ? feedOfKind(world, 'general') : undefined]
      : [];
  const createdAt = moment(created, r.int(1000));
  return {
    kind: 'calendar_event',
    id,
    created_at: wire(createdAt),
    updated_at: wire(Math.max(created, updated)),
    title: spec.title,
    status,
    start_date: isoInZone(spec.start, spec.timeZone),
    end_date: spec.end === null ? null : isoInZone(spec.end, spec.timeZone),
    timezone: spec.timeZone,
    allow_public_guest_list: r.chance(0.4),
    enable_registration_button: registration !== null,
    is_unlisted: r.chance(0.08),
    publish_to_site: r.chance(0.7),
    triggers_webhooks: webhooks,
    show_end_date: spec.end !== null && r.chance(0.8),
    use_registration_btn_as_link: registration !== null && r.chance(0.4),
    description_chat_blocks: description(world, g, spec, hosts, registration),
    recap_chat_blocks:
      over && status === 'published' && r.chance(world.rich ? 0.6 : 0.3) ? recap(world, g, hosts, recording) : null,
    external_speakers: r.chance(0.3) ? `${g.firstName()} ${g.lastName()} (${g.company()})` : null,
    link: online
      ? `https://meet.example.com/${r.chars('abcdefghijklmnopqrstuvwxyz', 3)}-${r.chars('abcdefghijklmnopqrstuvwxyz', 4)}`
      : registration,
    location: online ? 'Online' : `${r.pick(VENUES)}, ${spec.city}`,
    partner_event_id: r.chance(0.3) ? `evt_${r.between(100000, 999999)}` : null,
    recording_link: recording,
    webhook_custom_metadata:
      webhooks && r.chance(0.7)
        ? JSON.stringify({ campaign: `demo-${slugOf(spec.tags[0] ?? 'event')}`, source: 'hearth-demo' })
        : null,
    attendees_count: status !== 'published' ? 0 : upcoming ? r.between(0, 60) : r.between(5, 150),
    cover_image_url: r.chance(0.6) ? `https://images.example.com/events/${id}/cover.jpg` : null,
    published_to: publishedTo.flatMap((feed) =>
      feed
        ? [
            {
              chat_channel_id: feed.channelId,
              chat_message_permalink: permalink(feed.channelId, createdAt),
              feed_id: feed.id,
            },
          ]
        : [],
    ),
    hosts: hosts.map((h) => h.id),
    speakers: speakers.map((s) => s.id),
    tags: tagIds(world, spec.tags),
  };
}

/** `count` events in all (at least the pinned and ongoing ones), spread from 60 days before now to 90 after. */
export function* eventRecords(world: World, g: TextGen, count: number): Generator<EventLine> {
  const special = [...ongoingEvents(world.now), ...daylightSavingEvents()];
  for (const spec of special) yield eventRecord(world, g, spec, 'published');
  const regular = Math.max(0, count - special.length);
  const r = g.random;
  // One event in every zone, spaced across the range; the zones of the others are drawn by weight.
  const zoneStep = Math.max(1, Math.floor(regular / ZONES.length));
  for (let i = 0; i < regular; i++) {
    const template = r.pick(TEMPLATES);
    const dayOffset = -60 + Math.floor((150 * (i + r.next())) / regular);
    const timing = localTiming(
      r,
      world.now,
      zoneFor(r, i % zoneStep === 0 ? i / zoneStep : -1),
      dayOffset,
      r.pick(template.hours),
      template.days ?? 0,
    );
    const online = timing.zone.cities.length === 0 || r.chance(template.online);
    yield eventRecord(world, g, {
      title: template.title(g),
      start: timing.start,
      end: !template.days && r.chance(template.openEnded ?? 0.1) ? null : timing.end,
      timeZone: timing.zone.name,
      city: online ? null : r.pick(timing.zone.cities),
      tags: template.tags,
    });
  }
}
