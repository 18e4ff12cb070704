// What one demo run shares between its parts: the clock, the id source, and the people, feeds and tags records point at.
import type { ShortIds } from './random.js';

export interface DemoProfile {
  id: string;
  name: string;
  firstName: string;
  chatUserId: string;
  image72: string | null;
  isAdmin: boolean;
  isBot: boolean;
}

export type FeedKind =
  | 'announcements'
  | 'general'
  | 'events'
  | 'show-and-tell'
  | 'jobs'
  | 'hackathon'
  | 'help'
  | 'introductions'
  | 'random'
  | 'learning';

export interface DemoFeed {
  id: string;
  label: string;
  slug: string;
  channelId: string;
  kind: FeedKind;
  archived: boolean;
  unlisted: boolean;
  /** Relative share of the posts. */
  weight: number;
}

export type TagKey =
  | 'workshop'
  | 'meetup'
  | 'webinar'
  | 'ama'
  | 'engineering'
  | 'design'
  | 'career'
  | 'beginner'
  | 'members';

export interface DemoTag {
  key: TagKey;
  id: string;
  label: string;
  groupId: string;
}

export interface World {
  /** Epoch milliseconds that "now" stands for: past and upcoming are relative to it. */
  now: number;
  /** The small default demo shows every kind of block; large ones keep records lean. */
  rich: boolean;
  ids: ShortIds;
  /** Everyone but the bot, most active first. */
  members: DemoProfile[];
  admins: DemoProfile[];
  bot: DemoProfile;
  feeds: DemoFeed[];
  tags: DemoTag[];
}

export function feedOfKind(world: World, kind: FeedKind): DemoFeed | undefined {
  return world.feeds.find((feed) => feed.kind === kind);
}

export function tagIds(world: World, keys: readonly TagKey[]): string[] {
  return world.tags.filter((tag) => keys.includes(tag.key)).map((tag) => tag.id);
}
