// The whole data model of the spec: tenants and tokens, profiles, feeds, tags, events, posts, comments,
// and the idempotency keys and audit trail of adding members.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function initialMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  const json = columnType(store, 'json');
  const bool = columnType(store, 'bool');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('communities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts)
        .addColumn('revoked_at', ts)
        .addColumn('last_used_at', ts)
        .execute();
      await db.schema.createIndex('tokens_community').on('tokens').columns(['community_id', 'created_at']).execute();

      await db.schema
        .createTable('profiles')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('preferred_name', 'text')
        .addColumn('preferred_image_original', 'text')
        .addColumn('preferred_image_1024', 'text')
        .addColumn('preferred_image_512', 'text')
        .addColumn('preferred_image_192', 'text')
        .addColumn('preferred_image_72', 'text')
        .addColumn('preferred_image_48', 'text')
        .addColumn('preferred_image_32', 'text')
        .addColumn('preferred_image_24', 'text')
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('email', 'text')
        .addColumn('email_key', 'text')
        .addColumn('chat_user_id', 'text')
        .addColumn('chat_is_admin', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('chat_is_bot', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('chat_first_name', 'text')
        .addColumn('chat_last_name', 'text')
        .addColumn('chat_image_72', 'text')
        .addColumn('chat_image_original', 'text')
        .addPrimaryKeyConstraint('profiles_pk', ['community_id', 'id'])
        .execute();
      // One member per e-mail and community, enforced by the database (concurrent adds race here).
      await db.schema
        .createIndex('profiles_email_key')
        .on('profiles')
        .columns(['community_id', 'email_key'])
        .unique()
        .execute();
      await db.schema
        .createIndex('profiles_chat_user')
        .on('profiles')
        .columns(['community_id', 'chat_user_id'])
        .execute();

      await db.schema
        .createTable('feeds')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('is_archived', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('is_unlisted', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('chat_channel_id', 'text')
        .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('feeds_pk', ['community_id', 'id'])
        .execute();
      await db.schema
        .createIndex('feeds_chat_channel')
        .on('feeds')
        .columns(['community_id', 'chat_channel_id'])
        .execute();

      await db.schema
        .createTable('tags')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('tag_group_id', 'text')
        .addColumn('label', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('tags_pk', ['community_id', 'id'])
        .execute();

      await db.schema
        .createTable('calendar_events')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('slug', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('start_at', ts, (c) => c.notNull())
        .addColumn('end_at', ts)
        .addColumn('occupied_until', ts, (c) => c.notNull())
        .addColumn('time_zone', 'text')
        .addColumn('allow_public_guest_list', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('enable_registration_button', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('is_unlisted', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('publish_to_site', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('triggers_webhooks', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('show_end_date', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('use_registration_btn_as_link', bool, (c) => c.notNull().defaultTo(false))
        .addColumn('description_chat_blocks', json)
        .addColumn('description_chat_blocks_references', json, (c) => c.notNull())
        .addColumn('recap_chat_blocks', json)
        .addColumn('recap_chat_blocks_references', json, (c) => c.notNull())
        .addColumn('external_speakers', 'text')
        .addColumn('link', 'text')
        .addColumn('location', 'text')
        .addColumn('partner_event_id', 'text')
        .addColumn('recording_link', 'text')
        .addColumn('webhook_custom_metadata', 'text')
        .addColumn('attendees_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cover_image_url', 'text')
        .addPrimaryKeyConstraint('calendar_events_pk', ['community_id', 'id'])
        .execute();
      // Listing walks (status, start) in either direction; the time filters bound start or occupied_until.
      // Both carry every filtered column, so counts and a page's ids are read from the index alone.
      const filtered = ['publish_to_site', 'is_unlisted'];
      await db.schema
        .createIndex('calendar_events_by_start')
        .on('calendar_events')
        .columns(['community_id', 'status', 'start_at', 'id', 'occupied_until', ...filtered])
        .execute();
      await db.schema
        .createIndex('calendar_events_by_end')
        .on('calendar_events')
        .columns(['community_id', 'status', 'occupied_until', 'start_at', 'id', ...filtered])
        .execute();

      await db.schema
        .createTable('event_profiles')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('profile_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_profiles_pk', ['community_id', 'event_id', 'role', 'position'])
        .addForeignKeyConstraint(
          'event_profiles_event',
          ['community_id', 'event_id'],
          'calendar_events',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .addForeignKeyConstraint('event_profiles_profile', ['community_id', 'profile_id'], 'profiles', [
          'community_id',
          'id',
        ])
        .execute();
      await db.schema
        .createIndex('event_profiles_profile')
        .on('event_profiles')
        .columns(['community_id', 'profile_id'])
        .execute();

      await db.schema
        .createTable('event_tags')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_tags_pk', ['community_id', 'event_id', 'position'])
        .addForeignKeyConstraint(
          'event_tags_event',
          ['community_id', 'event_id'],
          'calendar_events',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .addForeignKeyConstraint('event_tags_tag', ['community_id', 'tag_id'], 'tags', ['community_id', 'id'])
        .execute();

      await db.schema
        .createTable('event_publications')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('feed_id', 'text')
        .addColumn('chat_channel_id', 'text')
        .addColumn('chat_message_permalink', 'text')
        .addPrimaryKeyConstraint('event_publications_pk', ['community_id', 'event_id', 'position'])
        .addForeignKeyConstraint(
          'event_publications_event',
          ['community_id', 'event_id'],
          'calendar_events',
          ['community_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('event_publications_feed')
        .on('event_publications')
        .columns(['community_id', 'feed_id', 'event_id'])
        .execute();

      await db.schema
        .createTable('posts')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('content_created_at', ts)
        .addColumn('latest_activity_at', ts, (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('slug', 'text')
        .addColumn('feed_id', 'text', (c) => c.notNull())
        .addColumn('post_detail_display_format', 'text')
        .addColumn('author_profile_id', 'text')
        .addColumn('read_time_minutes', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('source', 'text')
        .addColumn('file_attachments_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reactions_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('body_plaintext', 'text')
        .addColumn('body_prosemirror', json)
        .addColumn('chat_message', json)
        .addColumn('cover_image_file_id', 'text')
        .addColumn('cover_image_url', 'text')
        .addColumn('references', json, (c) => c.notNull())
        .addPrimaryKeyConstraint('posts_pk', ['community_id', 'id'])
        .addForeignKeyConstraint('posts_feed', ['community_id', 'feed_id'], 'feeds', ['community_id', 'id'])
        .addForeignKeyConstraint('posts_author', ['community_id', 'author_profile_id'], 'profiles', [
          'community_id',
          'id',
        ])
        .execute();
      // Each sort of a feed (and of the Home feed) walks one of these in order, ids breaking ties. The Home
      // indexes carry feed_id so that leaving out hidden feeds is decided from the index alone.
      for (const [name, columns] of [
        ['posts_feed_created', ['community_id', 'feed_id', 'created_at', 'id']],
        ['posts_feed_activity', ['community_id', 'feed_id', 'latest_activity_at', 'id']],
        ['posts_created', ['community_id', 'created_at', 'id', 'feed_id']],
        ['posts_activity', ['community_id', 'latest_activity_at', 'id', 'feed_id']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('posts')
          .columns([...columns])
          .execute();
      }

      await db.schema
        .createTable('comments')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addColumn('parent_comment_id', 'text')
        .addColumn('author_profile_id', 'text')
        .addColumn('body_plaintext', 'text')
        .addColumn('chat_message', json)
        .addColumn('reactions_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_attachments_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('references', json, (c) => c.notNull())
        .addPrimaryKeyConstraint('comments_pk', ['community_id', 'id'])
        .addForeignKeyConstraint('comments_post', ['community_id', 'post_id'], 'posts', ['community_id', 'id'])
        .addForeignKeyConstraint('comments_author', ['community_id', 'author_profile_id'], 'profiles', [
          'community_id',
          'id',
        ])
        .execute();
      await db.schema
        .createIndex('comments_post')
        .on('comments')
        .columns(['community_id', 'post_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['community_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('detail', json, (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_log_community')
        .on('audit_log')
        .columns(['community_id', 'created_at', 'id'])
        .execute();
    },
  };
}
