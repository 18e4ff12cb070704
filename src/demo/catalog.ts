// The demo's feeds (chat channels) and its tags in their groups.
import type { FeedRecord, TagRecord } from '../import/records.js';
import { DAY, wire } from './clock.js';
import { ChatIds, type Random } from './random.js';
import type { DemoFeed, DemoTag, FeedKind, TagKey } from './world.js';

export type FeedLine = FeedRecord & { kind: 'feed' };
export type TagLine = TagRecord & { kind: 'tag' };

interface FeedSpec {
  kind: FeedKind;
  label: string;
  weight: number;
  archived?: boolean;
  unlisted?: boolean;
}

const DEFAULT_FEEDS: readonly FeedSpec[] = [
  { kind: 'announcements', label: 'Announcements', weight: 8 },
  { kind: 'general', label: 'General', weight: 40 },
  { kind: 'events', label: 'Events', weight: 12 },
  { kind: 'show-and-tell', label: 'Show & Tell', weight: 15 },
  // Job posts stay off Home so they do not crowd out conversation.
  { kind: 'jobs', label: 'Jobs', weight: 10, unlisted: true },
  { kind: 'hackathon', label: 'Hackathon 2025', weight: 15, archived: true },
];

const MORE_FEEDS: readonly FeedSpec[] = [
  { kind: 'help', label: 'Help & Questions', weight: 20 },
  { kind: 'introductions', label: 'Introductions', weight: 10 },
  { kind: 'random', label: 'Random', weight: 15 },
  { kind: 'learning', label: 'Learning Resources', weight: 8 },
];

/** Posts in an archived feed all predate this many days before now. */
export const ARCHIVED_BEFORE_DAYS = 75;

export function buildFeeds(random: Random, many: boolean, now: number): { feeds: DemoFeed[]; records: FeedLine[] } {
  const chatIds = new ChatIds(random.fork('chat-channels'));
  const specs = many ? [...DEFAULT_FEEDS, ...MORE_FEEDS] : DEFAULT_FEEDS;
  const feeds: DemoFeed[] = [];
  const records: FeedLine[] = [];
  specs.forEach((spec, index) => {
    const feed: DemoFeed = {
      id: random.uuid(),
      label: spec.label,
      slug: spec.kind,
      channelId: chatIds.next('C0'),
      kind: spec.kind,
      archived: spec.archived ?? false,
      unlisted: spec.unlisted ?? false,
      weight: spec.weight,
    };
    feeds.push(feed);
    records.push({
      kind: 'feed',
      id: feed.id,
      created_at: wire(now - (720 - index * 20) * DAY + random.int(DAY)),
      label: feed.label,
      slug: feed.slug,
      is_archived: feed.archived,
      is_unlisted: feed.unlisted,
      chat_channel_id: feed.channelId,
    });
  });
  return { feeds, records };
}

const TAG_GROUPS: readonly { group: string; tags: readonly (readonly [TagKey, string])[] }[] = [
  {
    group: 'Format',
    tags: [
      ['workshop', 'Workshop'],
      ['meetup', 'Meetup'],
      ['webinar', 'Webinar'],
      ['ama', 'AMA'],
    ],
  },
  {
    group: 'Topic',
    tags: [
      ['engineering', 'Engineering'],
      ['design', 'Design'],
      ['career', 'Career'],
    ],
  },
  {
    group: 'Audience',
    tags: [
      ['beginner', 'Beginner friendly'],
      ['members', 'Members only'],
    ],
  },
];

export function buildTags(random: Random, now: number): { tags: DemoTag[]; records: TagLine[] } {
  const tags: DemoTag[] = [];
  const records: TagLine[] = [];
  for (const { tags: entries } of TAG_GROUPS) {
    const groupId = random.uuid();
    for (const [key, label] of entries) {
      const tag: DemoTag = { key, id: random.uuid(), label, groupId };
      tags.push(tag);
      records.push({
        kind: 'tag',
        id: tag.id,
        created_at: wire(now - 600 * DAY + random.int(30 * DAY)),
        tag_group_id: groupId,
        label,
      });
    }
  }
  return { tags, records };
}
