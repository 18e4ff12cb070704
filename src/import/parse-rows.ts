// One record of an import file becomes rows of the plan: normalized, with defaults, timestamps in the stored
// form, and links to the records it names.
import { writeJson } from '../db/json.js';
import { slugify } from '../lib/slug.js';
import { epochOfWallTime, isValidTimeZone } from '../lib/time-zone.js';
import { parseInstant, storedFromInput, toStored } from '../lib/timestamps.js';
import type { ChatMessage } from '../schemas/post.js';
import type {
  BadgeRecord,
  CommentRecord,
  EventRecord,
  FeedRecord,
  GroupRecord,
  PostRecord,
  ProfileRecord,
  TagRecord,
} from './records.js';
import type { ImportPlan, Link, ParsedMemberSet } from './plan.js';
import { ImportError } from './problems.js';

/**
 * The last timestamp read and its stored form: a record's `updated_at` is most often its `created_at`, and parsing
 * one took a twentieth of the import's worker.
 */
let lastStamp: { input: string; stored: string } | null = null;

/** Builds the rows of one valid record of line `line` into the plan; a rule the schema cannot say fails the line. */
export class LineParser {
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
    if (value === lastStamp?.input) return lastStamp.stored;
    const stored = storedFromInput(value) ?? this.fail(`${field}: '${value}' is not an ISO 8601 or wire timestamp`);
    lastStamp = { input: value, stored };
    return stored;
  }

  /** An event's start or end: written without an offset, it is a local time of the event's own time zone. */
  eventTime(value: string | null | undefined, field: string, timeZone: string | null): string | null {
    if (value === undefined || value === null) return null;
    const parsed = parseInstant(value) ?? this.fail(`${field}: '${value}' is not an ISO 8601 or wire timestamp`);
    const epochMs = parsed.hasOffset || timeZone === null ? parsed.epochMs : epochOfWallTime(parsed.epochMs, timeZone);
    return toStored(epochMs, parsed.extraMicros);
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
        deactivated_at: record.is_deactivated ? this.now : null,
      },
    });
    return id;
  }

  profileRef(ref: string | ProfileRecord, role: string): string {
    if (typeof ref !== 'string') return this.profile(ref);
    this.link('profiles', ref, role);
    return ref;
  }

  /** A tag named by its id: linked (it must exist in the file or the store), and its id kept. */
  tagRef(id: string): string {
    this.link('tags', id, 'tag');
    return id;
  }

  tag(record: TagRecord): string {
    this.plan.tags.set(record.id, {
      line: this.line,
      row: {
        id: record.id,
        created_at: this.stamp(record.created_at, 'created_at') ?? this.now,
        tag_group_id: record.tag_group_id ?? null,
        label: record.label,
      },
    });
    return record.id;
  }

  feed(record: FeedRecord): void {
    const purpose = record.chat_channel_purpose_chat_blocks ?? null;
    const topic = record.chat_channel_topic_chat_blocks ?? null;
    const givenReferences = (references: FeedRecord['chat_channel_topic_chat_blocks_references']) =>
      references ? writeJson(references) : null;
    this.plan.feeds.set(record.id, {
      line: this.line,
      derivePurpose: record.chat_channel_purpose_chat_blocks_references ? null : (purpose ?? []),
      deriveTopic: record.chat_channel_topic_chat_blocks_references ? null : (topic ?? []),
      row: {
        id: record.id,
        created_at: this.stamp(record.created_at, 'created_at') ?? this.now,
        label: record.label,
        slug: record.slug ?? slugify(record.label),
        is_archived: record.is_archived ?? false,
        is_unlisted: record.is_unlisted ?? false,
        banner_file_id: record.banner_file_id ?? null,
        banner_file_url: record.banner_file_url ?? null,
        emoji_icon: record.emoji_icon ?? null,
        list_view_display_format: record.list_view_display_format ?? 'snippet',
        post_detail_display_format: record.post_detail_display_format ?? 'discussion',
        show_in_navigation_menu: record.show_in_navigation_menu ?? true,
        is_site_posting_enabled: record.is_site_posting_enabled ?? false,
        chat_channel_id: record.chat_channel_id ?? null,
        chat_channel_name: record.chat_channel_name ?? null,
        chat_channel_num_members: record.chat_channel_num_members ?? 0,
        chat_channel_purpose_chat_blocks: purpose === null ? null : writeJson(purpose),
        chat_channel_purpose_chat_blocks_references: givenReferences(
          record.chat_channel_purpose_chat_blocks_references,
        ),
        chat_channel_topic_chat_blocks: topic === null ? null : writeJson(topic),
        chat_channel_topic_chat_blocks_references: givenReferences(record.chat_channel_topic_chat_blocks_references),
      },
    });
  }

  event(record: EventRecord): void {
    const timeZone = record.timezone ?? null;
    if (timeZone !== null && !isValidTimeZone(timeZone)) this.fail(`timezone: '${timeZone}' is not an IANA time zone`);
    const start = this.eventTime(record.start_date, 'start_date', timeZone) ?? this.fail('start_date is required');
    const end = this.eventTime(record.end_date, 'end_date', timeZone);
    if (end !== null && end < start) this.fail('end_date: must not be before start_date');
    const created = this.stamp(record.created_at, 'created_at') ?? this.now;
    const description = record.description_chat_blocks ?? null;
    const recap = record.recap_chat_blocks ?? null;
    const publications = (record.published_to ?? []).map((p) => {
      if (p.feed_id) this.link('feeds', p.feed_id, 'published_to feed');
      return {
        feed_id: p.feed_id ?? null,
        chat_channel_id: p.chat_channel_id ?? null,
        chat_message_permalink: p.chat_message_permalink ?? null,
      };
    });
    this.plan.events.set(record.id, {
      line: this.line,
      hosts: (record.hosts ?? []).map((h) => this.profileRef(h, 'host')),
      speakers: (record.speakers ?? []).map((s) => this.profileRef(s, 'speaker')),
      tags: (record.tags ?? []).map((t) => (typeof t === 'string' ? this.tagRef(t) : this.tag(t))),
      publications,
      deriveDescription: record.description_chat_blocks_references ? null : (description ?? []),
      deriveRecap: record.recap_chat_blocks_references ? null : (recap ?? []),
      row: {
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
        reminders_config: record.reminders_config ? writeJson(record.reminders_config) : null,
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

  /**
   * A badge or a group and its members, each a profile of the file or the community, once. A member's time defaults
   * to the record's updated_at (else its created_at, else the import's time).
   */
  memberSet(
    record: BadgeRecord | GroupRecord,
    members: readonly { profile_id: string; since: string | null | undefined }[],
    field: 'assigned_at' | 'added_at',
    role: string,
  ): ParsedMemberSet {
    const created = this.stamp(record.created_at, 'created_at') ?? this.now;
    const updated = this.stamp(record.updated_at, 'updated_at') ?? created;
    const seen = new Set<string>();
    const parsed = members.map(({ profile_id, since }, i) => {
      if (seen.has(profile_id)) this.fail(`members.${i}: profile '${profile_id}' is listed twice`);
      seen.add(profile_id);
      return { profile_id, since: this.stamp(since, `members.${i}.${field}`) ?? updated };
    });
    // Linked once the line is known good: a refused line's members are not reported missing as well.
    for (const { profile_id } of parsed) this.link('profiles', profile_id, role);
    return {
      line: this.line,
      members: parsed,
      row: {
        id: record.id,
        created_at: created,
        updated_at: updated,
        name: record.name,
        description: record.description ?? null,
      },
    };
  }

  badge(record: BadgeRecord): void {
    const members = (record.members ?? []).map((m) =>
      typeof m === 'string' ? { profile_id: m, since: null } : { profile_id: m.profile_id, since: m.assigned_at },
    );
    this.plan.badges.set(record.id, this.memberSet(record, members, 'assigned_at', 'badge member'));
  }

  group(record: GroupRecord): void {
    const members = (record.members ?? []).map((m) =>
      typeof m === 'string' ? { profile_id: m, since: null } : { profile_id: m.profile_id, since: m.added_at },
    );
    this.plan.groups.set(record.id, this.memberSet(record, members, 'added_at', 'group member'));
  }

  chatMessage(message: PostRecord['chat_message']): ChatMessage | null {
    if (!message) return null;
    const ts = message.message_ts;
    return {
      id: message.id ?? null,
      // A number JSON cannot hold (a string of 400 digits) is stored as JSON writes it: null.
      message_ts: ts === null || ts === undefined || !Number.isFinite(Number(ts)) ? null : Number(ts),
      blocks: message.blocks ?? null,
      markdown: message.markdown ?? null,
      permalink: message.permalink ?? null,
      parent_chat_message_id: message.parent_chat_message_id ?? null,
      username: message.username ?? null,
      icon: message.icon ?? null,
    };
  }

  /** The author as a whole profile (upserted), a bare profile id, or `author_profile_id`. */
  author(record: { author?: ProfileRecord | string | null; author_profile_id?: string | null }): string | null {
    if (record.author) return this.profileRef(record.author, 'author');
    if (record.author_profile_id) this.link('profiles', record.author_profile_id, 'author');
    return record.author_profile_id ?? null;
  }

  post(record: PostRecord): void {
    const created = this.stamp(record.created_at, 'created_at') ?? this.fail('created_at is required');
    const message = this.chatMessage(record.chat_message);
    if (record.feed && record.feed.id !== record.feed_id)
      this.fail(`feed.id '${record.feed.id}' is not the post's feed_id '${record.feed_id}'`);
    this.link('feeds', record.feed_id, 'feed');
    this.plan.posts.set(record.id, {
      line: this.line,
      blocks: message?.blocks ?? null,
      prosemirror: record.body_prosemirror ?? null,
      chatMessage: message,
      body_plaintext: record.body_plaintext,
      read_time_minutes: record.read_time_minutes,
      references: record.references ? writeJson(record.references) : undefined,
      commentsCountGiven: record.comments_count !== undefined && record.comments_count !== null,
      row: {
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
    if (record.parent_post && record.parent_post.id !== postId)
      this.fail(`parent_post.id '${record.parent_post.id}' is not the comment's parent_post_id '${postId}'`);
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
