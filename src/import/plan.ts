// The plan an import builds from a file: its rows by table and id (without the community they go to), the
// links between records, and what the writer derives.
import type { Insertable } from 'kysely';
import type {
  CalendarEventsTable,
  CommentsTable,
  FeedsTable,
  MemberSetTable,
  PostsTable,
  ProfilesTable,
  TagsTable,
} from '../db/database.js';

/** A row as a file gives it: the community it goes to is the writer's to add (derive-chunks.ts). */
export type FileRow<T> = Omit<Insertable<T>, 'community_id'>;

export interface Located<T> {
  line: number;
  row: T;
}

/** A reference from one record to another that must exist in the file or the community. */
export interface Link {
  line: number;
  table: 'profiles' | 'tags' | 'feeds' | 'posts' | 'comments';
  id: string;
  role: string;
}

/** The lines of a file that name one record, with the role of each (the same index in both lists). */
export interface LinkGroup {
  table: Link['table'];
  id: string;
  lines: number[];
  roles: string[];
}

/** Ids of records named by links, by table. */
export type NamedIds = Record<Link['table'], string[]>;

export const noNamedIds = (): NamedIds => ({ profiles: [], tags: [], feeds: [], posts: [], comments: [] });

export const noneNamed = (ids: NamedIds): boolean => Object.values(ids).every((list) => list.length === 0);

/** `table:id`, the key of a record named by links. */
export const linkKey = (table: Link['table'], id: string): string => `${table}:${id}`;

export interface ParsedEvent extends Located<FileRow<CalendarEventsTable>> {
  hosts: string[];
  speakers: string[];
  tags: string[];
  publications: { feed_id: string | null; chat_channel_id: string | null; chat_message_permalink: string | null }[];
  /** Blocks whose references the writer derives, when the record gave none. */
  deriveDescription: unknown[] | null;
  deriveRecap: unknown[] | null;
}

export interface ParsedPost
  extends Located<Omit<FileRow<PostsTable>, 'references' | 'body_plaintext' | 'read_time_minutes'>> {
  body_plaintext: string | null | undefined;
  read_time_minutes: number | null | undefined;
  references: string | undefined;
  blocks: unknown[] | null;
  prosemirror: unknown;
  /** The chat message as its column's JSON gives it back: the post's fragment is rendered from it, not reparsed. */
  chatMessage: unknown;
  commentsCountGiven: boolean;
}

export interface ParsedComment extends Located<Omit<FileRow<CommentsTable>, 'references' | 'body_plaintext'>> {
  body_plaintext: string | null | undefined;
  references: string | undefined;
  blocks: unknown[] | null;
}

export interface ParsedFeed extends Located<FileRow<FeedsTable>> {
  /** Blocks whose references the writer derives, when the record gave none. */
  derivePurpose: unknown[] | null;
  deriveTopic: unknown[] | null;
}

/** A badge or a group, with its members: profile ids and the time each got it, in the record's order. */
export interface ParsedMemberSet extends Located<FileRow<MemberSetTable>> {
  members: { profile_id: string; since: string }[];
}

export interface ImportPlan {
  feeds: Map<string, ParsedFeed>;
  profiles: Map<string, Located<FileRow<ProfilesTable>>>;
  tags: Map<string, Located<FileRow<TagsTable>>>;
  events: Map<string, ParsedEvent>;
  posts: Map<string, ParsedPost>;
  comments: Map<string, ParsedComment>;
  badges: Map<string, ParsedMemberSet>;
  groups: Map<string, ParsedMemberSet>;
  links: Link[];
  /** `table:id` of records whose own line was refused: links to them are not reported a second time. */
  rejected: Set<string>;
  records: number;
}

export function emptyPlan(): ImportPlan {
  return {
    feeds: new Map(),
    profiles: new Map(),
    tags: new Map(),
    events: new Map(),
    posts: new Map(),
    comments: new Map(),
    badges: new Map(),
    groups: new Map(),
    links: [],
    rejected: new Set(),
    records: 0,
  };
}
