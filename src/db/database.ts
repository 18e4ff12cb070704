// The typed shape of every table, as Kysely sees it. Booleans read back as 0/1 on SQLite, so they are
// typed loosely here and turned into booleans only in the mappers.
import type { ColumnType, Generated } from 'kysely';

/** Stored timestamp text `YYYY-MM-DD HH:MM:SS.ffffff` (UTC) on both stores. */
export type Timestamp = string;
export type Bool = ColumnType<boolean | number, boolean, boolean>;
/** JSON columns: text on SQLite, jsonb on PostgreSQL; written as JSON text on both. */
export type Json = ColumnType<unknown, string, string>;
export type Count = ColumnType<number | string, number, number>;
/** A count kept by the store itself; inserts may leave it out. */
export type Counter = ColumnType<number | string, number | undefined, number>;

export interface CommunitiesTable {
  id: string;
  slug: string;
  name: string;
  created_at: Timestamp;
  /** The longest event (end minus start) ever stored, so "upcoming" can seek to now minus it. */
  max_event_span_ms: Generated<number>;
  /**
   * The version the community's last change took: its fragments' versions, and so its ETags, come from here, never
   * from another community's writes. PostgreSQL's change check is the sum over communities.
   */
  fragment_version: Generated<number>;
}

export interface TokensTable {
  id: string;
  community_id: string;
  name: string | null;
  secret_hash: string;
  scopes: string;
  /** `spec` or `hosted`: the field names this token's answers use. */
  field_names: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
}

export interface ProfilesTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  preferred_name: string | null;
  preferred_image_original: string | null;
  preferred_image_1024: string | null;
  preferred_image_512: string | null;
  preferred_image_192: string | null;
  preferred_image_72: string | null;
  preferred_image_48: string | null;
  preferred_image_32: string | null;
  preferred_image_24: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** Lowercased e-mail; unique per community so that concurrent adds make one member. */
  email_key: string | null;
  chat_user_id: string | null;
  chat_is_admin: Bool;
  chat_is_bot: Bool;
  chat_first_name: string | null;
  chat_last_name: string | null;
  chat_image_72: string | null;
  chat_image_original: string | null;
  /** Set when the member was deactivated; null for an active one (a new add-member reactivates). */
  deactivated_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface FeedsTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  label: string;
  slug: string;
  is_archived: Bool;
  is_unlisted: Bool;
  chat_channel_id: string | null;
  /** Number of posts in the feed, kept by the import so that totals never count rows. */
  posts_count: Counter;
  banner_file_id: string | null;
  banner_file_url: string | null;
  emoji_icon: string | null;
  /** The hosted feed record's settings; the store has defaults for them, so inserts may leave them out. */
  list_view_display_format: ColumnType<string, string | undefined, string>;
  post_detail_display_format: ColumnType<string, string | undefined, string>;
  show_in_navigation_menu: ColumnType<boolean | number, boolean | undefined, boolean>;
  is_site_posting_enabled: ColumnType<boolean | number, boolean | undefined, boolean>;
  chat_channel_name: string | null;
  chat_channel_num_members: Counter;
  chat_channel_purpose_chat_blocks: Json | null;
  /** Null only on feeds stored before these columns existed; read as empty references. */
  chat_channel_purpose_chat_blocks_references: Json | null;
  chat_channel_topic_chat_blocks: Json | null;
  chat_channel_topic_chat_blocks_references: Json | null;
}

export interface TagsTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  tag_group_id: string | null;
  label: string;
}

export interface CalendarEventsTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  title: string | null;
  slug: string | null;
  status: string;
  start_at: Timestamp;
  /** The end given by the source, or null. */
  end_at: Timestamp | null;
  /** The end of the occupied interval: `end_at`, or `start_at` for an event without an end. */
  occupied_until: Timestamp;
  time_zone: string | null;
  /** The hosted product's reminders, kept as imported; answered only in hosted field-name mode. */
  reminders_config: Json | null;
  allow_public_guest_list: Bool;
  enable_registration_button: Bool;
  is_unlisted: Bool;
  publish_to_site: Bool;
  triggers_webhooks: Bool;
  show_end_date: Bool;
  use_registration_btn_as_link: Bool;
  description_chat_blocks: Json | null;
  description_chat_blocks_references: Json;
  recap_chat_blocks: Json | null;
  recap_chat_blocks_references: Json;
  external_speakers: string | null;
  link: string | null;
  location: string | null;
  partner_event_id: string | null;
  recording_link: string | null;
  webhook_custom_metadata: string | null;
  attendees_count: Count;
  cover_image_url: string | null;
  /** True once the event had a registration through the API: `attendees_count` then counts its registrations. */
  attendees_from_registrations: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface EventProfilesTable {
  community_id: string;
  event_id: string;
  role: 'host' | 'speaker';
  position: number;
  profile_id: string;
}

export interface EventTagsTable {
  community_id: string;
  event_id: string;
  position: number;
  tag_id: string;
}

export interface EventPublicationsTable {
  community_id: string;
  event_id: string;
  position: number;
  feed_id: string | null;
  chat_channel_id: string | null;
  chat_message_permalink: string | null;
}

export interface PostsTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  content_created_at: Timestamp | null;
  latest_activity_at: Timestamp;
  title: string | null;
  slug: string | null;
  feed_id: string;
  post_detail_display_format: string | null;
  author_profile_id: string | null;
  read_time_minutes: Count;
  source: string | null;
  file_attachments_count: Count;
  reactions_count: Count;
  comments_count: Count;
  body_plaintext: string | null;
  body_prosemirror: Json | null;
  chat_message: Json | null;
  cover_image_file_id: string | null;
  cover_image_url: string | null;
  references: Json;
}

export interface CommentsTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  post_id: string;
  parent_comment_id: string | null;
  author_profile_id: string | null;
  body_plaintext: string | null;
  chat_message: Json | null;
  reactions_count: Count;
  file_attachments_count: Count;
  references: Json;
}

export interface IdempotencyKeysTable {
  community_id: string;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  id: string;
  community_id: string;
  token_id: string;
  action: string;
  subject_id: string;
  detail: Json;
  request_id: string;
  created_at: Timestamp;
}

/**
 * A record's answer, rendered once at write time: UTF-8 JSON with a 0x00 byte wherever another fragment
 * (a profile, feed or tag) is spliced in at read time, `refs` naming those in order (`p:<id>,f:<id>`).
 */
export interface FragmentsTable {
  community_id: string;
  kind: 'event' | 'post' | 'profile' | 'feed' | 'tag';
  id: string;
  /** The community's version (`communities.fragment_version`) that last changed the bytes; an ETag is made of versions. */
  version: number;
  refs: string;
  body: Buffer;
}

/** Every record of `kind` in the community is to be rendered (marked by a migration; renderPending clears it). */
export interface PendingRendersTable {
  community_id: string;
  kind: FragmentsTable['kind'];
}

/** An event once per feed it is published to, with its filtered columns, so a feed's events walk one index in order. */
export interface EventFeedsTable {
  community_id: string;
  feed_id: string;
  event_id: string;
  status: string;
  start_at: Timestamp;
  occupied_until: Timestamp;
  publish_to_site: Bool;
  is_unlisted: Bool;
}

export interface WebhooksTable {
  id: string;
  community_id: string;
  url: string;
  /** `whsec_…`, as Standard Webhooks defines it. */
  secret: string;
  /** Comma-separated patterns: `calendar_event.created`, `member.*`, `*`. */
  event_types: string;
  created_at: Timestamp;
}

export type WebhookMessageState = 'pending' | 'delivered' | 'failed';

/** The outbox: one row per message to one webhook, written in the transaction of the change it announces. */
export interface WebhookMessagesTable {
  id: string;
  webhook_id: string;
  community_id: string;
  event_type: string;
  payload: string;
  created_at: Timestamp;
  state: WebhookMessageState;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  retry_until: Timestamp;
  claimed_until: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  message_id: string;
  webhook_id: string;
  attempt: number;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  ok: Bool;
  error: string | null;
}

/** One import run, written when it ended: with the import's rows when it completed, on its own otherwise. */
export interface ImportRunsTable {
  id: string;
  community_id: string;
  /** `import`, `pull`, `demo`, or a connector's name. */
  source: string;
  /** The file or address read, credentials removed; null for records handed over in memory. */
  origin: string | null;
  started_at: Timestamp;
  finished_at: Timestamp;
  duration_ms: Count;
  outcome: ImportOutcome;
  /** Records read from the input, whatever the outcome. */
  records: Count;
  /** Records written, by kind (0 unless the run completed). */
  feeds: Count;
  profiles: Count;
  tags: Count;
  calendar_events: Count;
  posts: Count;
  comments: Count;
  error: string | null;
}

/** How an import run ended: committed, refused for its lines, stopped by its user, or broken by anything else. */
export type ImportOutcome = 'completed' | 'refused' | 'interrupted' | 'failed';

/** A community's Slack connection (slack/slack-connections.repository.ts); its secrets never leave the command line. */
export interface SlackConnectionsTable {
  community_id: string;
  /** `xoxb-…`. */
  bot_token: string;
  signing_secret: string | null;
  /** JSON array of channel names or ids; null for every public channel. */
  channels: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  synced_at: Timestamp | null;
  /** `xapp-…` (migration 024): Socket Mode's app-level token; null when Slack sends events to the request URL. */
  app_token: string | null;
  /** `acme` of acme.slack.com (migration 024), from auth.test: live messages' permalinks; null until known. */
  workspace_domain: string | null;
}

/** A badge or a group of a community (migration 015): the record, its members in their own table. */
export interface MemberSetTable {
  community_id: string;
  id: string;
  created_at: Timestamp;
  /** Also moved by a change of its members. */
  updated_at: Timestamp;
  name: string;
  description: string | null;
}

/** A member holding a badge, since `assigned_at`. */
export interface BadgeMembersTable {
  community_id: string;
  badge_id: string;
  profile_id: string;
  assigned_at: Timestamp;
}

/** A member of a group, since `added_at`. */
export interface GroupMembersTable {
  community_id: string;
  group_id: string;
  profile_id: string;
  added_at: Timestamp;
}

/** A reaction per (message, emoji, user); `present` false is a removal kept so a late, older add stays undone. */
export interface ChatReactionsTable {
  community_id: string;
  chat_channel_id: string;
  message_ts: string;
  emoji: string;
  chat_user_id: string;
  present: Bool;
  changed_ts: string;
}

/** A calendar event's announcement in one Slack channel (migration 018). */
export interface ChatAnnouncementsTable {
  community_id: string;
  event_id: string;
  chat_channel_id: string;
  feed_id: string | null;
  wanted: ChatAnnouncementWanted;
  /** JSON {text, blocks}. */
  message: string;
  version: number;
  sent_version: ColumnType<number, number | undefined, number>;
  message_ts: string | null;
  permalink: string | null;
  uncertain: Bool;
  state: ChatAnnouncementState;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  claimed_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ChatAnnouncementWanted = 'shown' | 'cancelled' | 'removed';
export type ChatAnnouncementState = 'pending' | 'done' | 'failed';

export interface EventRegistrationsTable {
  community_id: string;
  event_id: string;
  profile_id: string;
  registered_at: Timestamp;
}

/** A subscribe URL of a community's calendar (migration 019): only the secret's hash is kept. */
export interface CalendarFeedsTable {
  id: string;
  community_id: string;
  feed_id: string | null;
  secret_hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** An event that left the public calendar (deleted, unpublished, unlisted), shown as cancelled for a while. */
export interface CalendarTombstonesTable {
  community_id: string;
  event_id: string;
  title: string;
  start_at: Timestamp;
  end_at: Timestamp | null;
  time_zone: string | null;
  /** Comma-separated feed ids. */
  feed_ids: string;
  sequence: Count;
  removed_at: Timestamp;
}

/** A Slack envelope acknowledged (migration 017): pending until applied, parked after its last failed attempt. */
export interface SlackInboxTable {
  id: string;
  community_id: string;
  event_id: string;
  event_type: string;
  envelope: string;
  received_at: Timestamp;
  state: 'pending' | 'done' | 'parked';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  claimed_until: Timestamp | null;
  error: string | null;
  outcome: string | null;
  finished_at: Timestamp | null;
}

/** The Slack ts of the version of a message Hearth holds, and its deletion (migration 017). */
export interface SlackMessageMarksTable {
  community_id: string;
  chat_channel_id: string;
  message_ts: string;
  version_ts: string;
  deleted_ts: string | null;
}

/** A person who signs in to the console (issue 41). */
export interface OperatorsTable {
  id: string;
  email: string;
  created_at: Timestamp;
}

/** A community an operator may manage; an operator with none may manage every community. */
export interface OperatorCommunitiesTable {
  operator_id: string;
  community_id: string;
}

/** A one-time sign-in link, kept as the SHA-256 of its secret. */
export interface OperatorLinksTable {
  secret_hash: string;
  operator_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A console session, kept as the SHA-256 of its cookie's value; deleting the row signs it out. */
export interface OperatorSessionsTable {
  id_hash: string;
  operator_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface Database {
  communities: CommunitiesTable;
  tokens: TokensTable;
  profiles: ProfilesTable;
  feeds: FeedsTable;
  tags: TagsTable;
  calendar_events: CalendarEventsTable;
  event_profiles: EventProfilesTable;
  event_tags: EventTagsTable;
  event_publications: EventPublicationsTable;
  posts: PostsTable;
  comments: CommentsTable;
  idempotency_keys: IdempotencyKeysTable;
  audit_log: AuditLogTable;
  fragments: FragmentsTable;
  event_feeds: EventFeedsTable;
  webhooks: WebhooksTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  pending_renders: PendingRendersTable;
  import_runs: ImportRunsTable;
  slack_connections: SlackConnectionsTable;
  badges: MemberSetTable;
  badge_members: BadgeMembersTable;
  groups: MemberSetTable;
  group_members: GroupMembersTable;
  chat_reactions: ChatReactionsTable;
  chat_announcements: ChatAnnouncementsTable;
  event_registrations: EventRegistrationsTable;
  calendar_feeds: CalendarFeedsTable;
  calendar_tombstones: CalendarTombstonesTable;
  slack_inbox: SlackInboxTable;
  slack_message_marks: SlackMessageMarksTable;
  operators: OperatorsTable;
  operator_communities: OperatorCommunitiesTable;
  operator_links: OperatorLinksTable;
  operator_sessions: OperatorSessionsTable;
}
