// Turns NDJSON lines into validated, normalized rows, or an ImportError naming the line and the reason.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import type { Insertable } from 'kysely';
import type { CalendarEventsTable, CommentsTable, FeedsTable, PostsTable, ProfilesTable, TagsTable } from '../db/database.js';
import { writeJson } from '../db/json.js';
import { slugify } from '../lib/slug.js';
import { isValidTimeZone } from '../lib/time-zone.js';
import { storedFromInput } from '../lib/timestamps.js';
import type { ChatMessage } from '../schemas/post.js';
import {
  recordKinds,
  recordSchemas,
  type CommentRecord,
  type EventRecord,
  type FeedRecord,
  type PostRecord,
  type ProfileRecord,
  type RecordKind,
  type TagRecord,
} from './import-records.js';

export class ImportError extends Error {
  constructor(readonly line: number, reason: string) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'ImportError';
  }
}

interface Located<T> {
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

export interface ParsedEvent extends Located<Insertable<CalendarEventsTable>> {
  hosts: string[];
  speakers: string[];
  tags: string[];
  publications: { feed_id: string | null; chat_channel_id: string | null; chat_message_permalink: string | null }[];
  /** Blocks whose references the writer derives, when the record gave none. */
  deriveDescription: unknown[] | null;
  deriveRecap: unknown[] | null;
}

export interface ParsedPost extends Located<Omit<Insertable<PostsTable>, 'references' | 'body_plaintext' | 'read_time_minutes'>> {
  body_plaintext: string | null | undefined;
  read_time_minutes: number | null | undefined;
  references: string | undefined;
  blocks: unknown[] | null;
  prosemirror: unknown;
  commentsCountGiven: boolean;
}

export interface ParsedComment extends Located<Omit<Insertable<CommentsTable>, 'references' | 'body_plaintext'>> {
  body_plaintext: string | null | undefined;
  references: string | undefined;
  blocks: unknown[] | null;
}

export interface ImportPlan {
  feeds: Map<string, Located<Insertable<FeedsTable>>>;
  profiles: Map<string, Located<Insertable<ProfilesTable>>>;
  tags: Map<string, Located<Insertable<TagsTable>>>;
  events: Map<string, ParsedEvent>;
  posts: Map<string, ParsedPost>;
  comments: Map<string, ParsedComment>;
  links: Link[];
  records: number;
}

const checkers = Object.fromEntries(
  recordKinds.map((kind) => [kind, TypeCompiler.Compile(recordSchemas[kind] as TSchema)]),
) as Record<RecordKind, TypeCheck<TSchema>>;

class LineParser {
  constructor(
    private readonly plan: ImportPlan,
    private readonly line: number,
    private readonly now: string,
  ) {}

  fail(reason: string): never {
    throw new ImportError(this.line, reason);
  }

  stamp(value: string | null | undefined, field: string): string | null {
    if (value === undefined || value === null) return null;
    return storedFromInput(value) ?? this.fail(`${field}: '${value}' is not an ISO 8601 or wire timestamp`);
  }

  link(table: Link['table'], id: string, role: string): void {
    this.plan.links.push({ line: this.line, table, id, role });
  }

  profile(record: ProfileRecord): string {
    const id = record.profile_id ?? record.id ?? this.fail('profile: profile_id is required');
    const created = this.stamp(record.created_at, 'created_at') ?? this.now;
    const email = record.email?.trim() || null;
    this.plan.profiles.set(id, {
      line: this.line,
      row: {
        id,
        created_at: created,
        updated_at: created,
        preferred_name: record.preferred_name ?? null,
        preferred_image_original: record.preferred_image_original ?? null,
        preferred_image_1024: record.preferred_image_1024 ?? null,
        preferred_image_512: record.preferred_image_512 ?? null,
        preferred_image_192: record.preferred_image_192 ?? null,
        preferred_image_72: record.preferred_image_72 ?? null,
        preferred_image_48: record.preferred_image_48 ?? null,
        preferred_image_32: record.preferred_image_32 ?? null,
        preferred_image_24: record.preferred_image_24 ?? null,
        first_name: record.first_name ?? null,
        last_name: record.last_name ?? null,
        email,
        email_key: email?.toLowerCase() ?? null,
        chat_user_id: record.chat_user_id ?? null,
        chat_is_admin: record.chat_is_admin ?? false,
        chat_is_bot: record.chat_is_bot ?? false,
        chat_first_name: record.chat_first_name ?? null,
        chat_last_name: record.chat_last_name ?? null,
        chat_image_72: record.chat_image_72 ?? null,
        chat_image_original: record.chat_image_original ?? null,
        community_id: '',
      },
    });
    return id;
  }

  profileRef(ref: string | ProfileRecord, role: string): string {
    if (typeof ref !== 'string') return this.profile(ref);
    this.link('profiles', ref, role);
    return ref;
  }

  tag(record: TagRecord): string {
    this.plan.tags.set(record.id, {
      line: this.line,
      row: {
        community_id: '',
        id: record.id,
        created_at: this.stamp(record.created_at, 'created_at') ?? this.now,
        tag_group_id: record.tag_group_id ?? null,
        label: record.label,
      },
    });
    return record.id;
  }

  feed(record: FeedRecord): void {
    this.plan.feeds.set(record.id, {
      line: this.line,
      row: {
        community_id: '',
        id: record.id,
        created_at: this.stamp(record.created_at, 'created_at') ?? this.now,
        label: record.label,
        slug: record.slug ?? slugify(record.label),
        is_archived: record.is_archived ?? false,
        is_unlisted: record.is_unlisted ?? false,
        chat_channel_id: record.chat_channel_id ?? null,
      },
    });
  }

  event(record: EventRecord): void {
    const timeZone = record.timezone ?? null;
    if (timeZone !== null && !isValidTimeZone(timeZone)) this.fail(`timezone: '${timeZone}' is not an IANA time zone`);
    const start = this.stamp(record.start_date, 'start_date') ?? this.fail('start_date is required');
    const end = this.stamp(record.end_date, 'end_date');
    if (end !== null && end < start) this.fail('end_date: must not be before start_date');
    const created = this.stamp(record.created_at, 'created_at') ?? this.now;
    const description = record.description_chat_blocks ?? null;
    const recap = record.recap_chat_blocks ?? null;
    const publications = (record.published_to ?? []).map((p) => {
      if (p.feed_id) this.link('feeds', p.feed_id, 'published_to feed');
      return { feed_id: p.feed_id ?? null, chat_channel_id: p.chat_channel_id ?? null, chat_message_permalink: p.chat_message_permalink ?? null };
    });
    this.plan.events.set(record.id, {
      line: this.line,
      hosts: (record.hosts ?? []).map((h) => this.profileRef(h, 'host')),
      speakers: (record.speakers ?? []).map((s) => this.profileRef(s, 'speaker')),
      tags: (record.tags ?? []).map((t) => (typeof t === 'string' ? (this.link('tags', t, 'tag'), t) : this.tag(t))),
      publications,
      deriveDescription: record.description_chat_blocks_references ? null : description ?? [],
      deriveRecap: record.recap_chat_blocks_references ? null : recap ?? [],
      row: {
        community_id: '',
        id: record.id,
        created_at: created,
        updated_at: this.stamp(record.updated_at, 'updated_at') ?? created,
        title: record.title ?? null,
        slug: record.slug ?? (record.title ? slugify(record.title) : null),
        status: record.status ?? 'published',
        start_at: start,
        end_at: end,
        occupied_until: end ?? start,
        time_zone: timeZone,
        allow_public_guest_list: record.allow_public_guest_list ?? false,
        enable_registration_button: record.enable_registration_button ?? false,
        is_unlisted: record.is_unlisted ?? false,
        publish_to_site: record.publish_to_site ?? false,
        triggers_webhooks: record.triggers_webhooks ?? false,
        show_end_date: record.show_end_date ?? false,
        use_registration_btn_as_link: record.use_registration_btn_as_link ?? false,
        description_chat_blocks: description === null ? null : writeJson(description),
        description_chat_blocks_references: writeJson(record.description_chat_blocks_references ?? null),
        recap_chat_blocks: recap === null ? null : writeJson(recap),
        recap_chat_blocks_references: writeJson(record.recap_chat_blocks_references ?? null),
        external_speakers: record.external_speakers ?? null,
        link: record.link ?? null,
        location: record.location ?? null,
        partner_event_id: record.partner_event_id ?? null,
        recording_link: record.recording_link ?? null,
        webhook_custom_metadata: record.webhook_custom_metadata ?? null,
        attendees_count: record.attendees_count ?? 0,
        cover_image_url: record.cover_image_url ?? null,
      },
    });
  }

  chatMessage(message: PostRecord['chat_message']): ChatMessage | null {
    if (!message) return null;
    const ts = message.message_ts;
    return {
      id: message.id ?? null,
      message_ts: ts === null || ts === undefined ? null : Number(ts),
      blocks: message.blocks ?? null,
      markdown: message.markdown ?? null,
      permalink: message.permalink ?? null,
      parent_chat_message_id: message.parent_chat_message_id ?? null,
      username: message.username ?? null,
      icon: message.icon ?? null,
    };
  }

  author(record: { author?: ProfileRecord | null; author_profile_id?: string | null }): string | null {
    if (record.author) return this.profile(record.author);
    if (record.author_profile_id) this.link('profiles', record.author_profile_id, 'author');
    return record.author_profile_id ?? null;
  }

  post(record: PostRecord): void {
    const created = this.stamp(record.created_at, 'created_at') ?? this.fail('created_at is required');
    const message = this.chatMessage(record.chat_message);
    this.link('feeds', record.feed_id, 'feed');
    this.plan.posts.set(record.id, {
      line: this.line,
      blocks: message?.blocks ?? null,
      prosemirror: record.body_prosemirror ?? null,
      body_plaintext: record.body_plaintext,
      read_time_minutes: record.read_time_minutes,
      references: record.references ? writeJson(record.references) : undefined,
      commentsCountGiven: record.comments_count !== undefined && record.comments_count !== null,
      row: {
        community_id: '',
        id: record.id,
        created_at: created,
        updated_at: this.stamp(record.updated_at, 'updated_at') ?? created,
        content_created_at: this.stamp(record.content_created_at, 'content_created_at'),
        latest_activity_at: this.stamp(record.latest_activity_at, 'latest_activity_at') ?? created,
        title: record.title ?? null,
        slug: record.slug ?? (record.title ? slugify(record.title) : null),
        feed_id: record.feed_id,
        post_detail_display_format: record.post_detail_display_format ?? null,
        author_profile_id: this.author(record),
        source: record.source ?? null,
        file_attachments_count: record.file_attachments_count ?? 0,
        reactions_count: record.reactions_count ?? 0,
        comments_count: record.comments_count ?? 0,
        body_prosemirror: record.body_prosemirror ? writeJson(record.body_prosemirror) : null,
        chat_message: message ? writeJson(message) : null,
        cover_image_file_id: record.cover_image_file_id ?? null,
        cover_image_url: record.cover_image_url ?? null,
      },
    });
  }

  comment(record: CommentRecord): void {
    const postId = record.parent_post_id ?? record.post_id ?? this.fail('parent_post_id (or post_id) is required');
    const created = this.stamp(record.created_at, 'created_at') ?? this.fail('created_at is required');
    const message = this.chatMessage(record.chat_message);
    this.link('posts', postId, 'parent post');
    if (record.parent_comment_id) this.link('comments', record.parent_comment_id, 'parent comment');
    this.plan.comments.set(record.id, {
      line: this.line,
      blocks: message?.blocks ?? null,
      body_plaintext: record.body_plaintext,
      references: record.references ? writeJson(record.references) : undefined,
      row: {
        community_id: '',
        id: record.id,
        created_at: created,
        updated_at: this.stamp(record.updated_at, 'updated_at') ?? created,
        post_id: postId,
        parent_comment_id: record.parent_comment_id ?? null,
        author_profile_id: this.author(record),
        chat_message: message ? writeJson(message) : null,
        reactions_count: record.reactions_count ?? 0,
        file_attachments_count: record.file_attachments_count ?? 0,
      },
    });
  }
}

/** The most specific reason: inside a union (a value or null), the error of the branch that got furthest. */
function deepest(error: ValueError): ValueError {
  let best = error;
  for (const branch of error.errors) {
    const first = branch.First();
    if (!first) continue;
    const candidate = deepest(first);
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

function describeFirstError(check: TypeCheck<TSchema>, value: unknown): string {
  const first = check.Errors(value).First();
  if (!first) return 'invalid record';
  const error = deepest(first);
  const field = error.path.replace(/^\//, '').replace(/\//g, '.') || 'record';
  return `${field}: ${error.message}`;
}

export function emptyPlan(): ImportPlan {
  return {
    feeds: new Map(),
    profiles: new Map(),
    tags: new Map(),
    events: new Map(),
    posts: new Map(),
    comments: new Map(),
    links: [],
    records: 0,
  };
}

/** Adds one NDJSON line to the plan; blank lines are skipped. Later records with the same id win. */
export function parseLine(plan: ImportPlan, text: string, line: number, now: string): void {
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportError(line, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ImportError(line, 'a record must be a JSON object');
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !(recordKinds as string[]).includes(kind)) {
    throw new ImportError(line, `kind must be one of ${recordKinds.join(', ')} (got ${JSON.stringify(kind ?? null)})`);
  }
  const check = checkers[kind as RecordKind];
  if (!check.Check(value)) throw new ImportError(line, `${kind}: ${describeFirstError(check, value)}`);
  const parser = new LineParser(plan, line, now);
  switch (kind as RecordKind) {
    case 'feed': parser.feed(value as FeedRecord); break;
    case 'profile': parser.profile(value as ProfileRecord); break;
    case 'tag': parser.tag(value as TagRecord); break;
    case 'calendar_event': parser.event(value as EventRecord); break;
    case 'post': parser.post(value as PostRecord); break;
    case 'comment': parser.comment(value as CommentRecord); break;
  }
  plan.records++;
}
