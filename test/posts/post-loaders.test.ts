// The comment loader search reuses, and the post oracle (test/helpers/load-posts.ts) beside it: exact records, and a
// fixed number of queries however many rows.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComments } from '../../src/posts/post-loaders.js';
import { loadPosts } from '../helpers/load-posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { feedIds, profileIds } from '../../fixtures/community.js';
import { postIds, postRecords } from '../../fixtures/posts.js';

let t: TestApp;
let community: string;

beforeAll(async () => {
  t = await createTestApp();
  community = await t.community('acme');
  await t.importRecords(community, postRecords);
});
afterAll(() => t.close());

/** Counts the statements a Kysely instance sends. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('loadPosts', () => {
  it('reads authors and feeds in one query each for a whole batch, keeping the order given', async () => {
    const { db } = t.testStore.store;
    const rows = await db.selectFrom('posts').selectAll().where('community_id', '=', community).orderBy('id').execute();
    const counter = new QueryCounter();
    const loaded = await loadPosts(db.withPlugin(counter), community, rows);
    expect(counter.count).toBe(2);
    expect(loaded.map((p) => p.id)).toEqual(rows.map((r) => r.id));
    expect(loaded.find((p) => p.id === postIds.welcome)?.author?.profile_id).toBe(profileIds.ada);
    expect(await loadPosts(db.withPlugin(counter), community, [])).toEqual([]);
    expect(counter.count).toBe(2);
  });
});

describe('loadComments', () => {
  it('answers the comment record of DECISIONS, with its parent post and that post’s feed', async () => {
    const { db } = t.testStore.store;
    const rows = await db
      .selectFrom('comments')
      .selectAll()
      .where('community_id', '=', community)
      .orderBy('id', 'desc')
      .execute();
    const counter = new QueryCounter();
    const loaded = await loadComments(db.withPlugin(counter), community, rows);
    // Parent posts, then authors and feeds together.
    expect(counter.count).toBe(3);
    expect(loaded).toEqual([
      {
        id: 'comment00002',
        created_at: '2026-03-03 08:00:00.000000+00',
        updated_at: '2026-03-03 08:00:00.000000+00',
        parent_post_id: postIds.welcome,
        parent_comment_id: 'comment00001',
        feed_id: feedIds.general,
        author_profile_id: profileIds.ada,
        body_plaintext: 'Hello Grace',
        chat_message: null,
        reactions_count: 0,
        file_attachments_count: 0,
        author: expect.objectContaining({ profile_id: profileIds.ada, preferred_name: 'Ada Lovelace' }),
        feed: { id: feedIds.general, label: 'General', slug: 'general' },
        references: { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] },
        parent_post: {
          id: postIds.welcome,
          created_at: '2026-03-01 10:00:00.000000+00',
          title: 'Welcome to Hearth: read me first!',
          slug: 'welcome-to-hearth-read-me-first',
        },
      },
      expect.objectContaining({
        id: 'comment00001',
        parent_comment_id: null,
        author_profile_id: profileIds.grace,
        body_plaintext: 'Hi!',
      }),
    ]);
  });

  it('derives a comment body and references from its chat blocks at import', async () => {
    const other = await t.community('blocks');
    await t.importRecords(other, [
      ...postRecords.filter((r) => r.kind !== 'comment'),
      {
        kind: 'comment',
        id: 'blockcomment',
        created_at: '2026-03-05T00:00:00Z',
        parent_post_id: postIds.prose,
        chat_message: {
          id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
          message_ts: '1772668800.000100',
          blocks: [
            {
              type: 'rich_text',
              elements: [
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'user', user_id: 'U0ADA00001' },
                    { type: 'text', text: ' photos: https://img.example.com/a.gif' },
                  ],
                },
              ],
            },
          ],
        },
      },
    ]);
    const { db } = t.testStore.store;
    const rows = await db.selectFrom('comments').selectAll().where('community_id', '=', other).execute();
    const [comment] = await loadComments(db, other, rows);
    expect(comment?.body_plaintext).toBe('@Ada Lovelace photos: https://img.example.com/a.gif');
    expect(comment?.chat_message?.message_ts).toBe(1772668800.0001);
    expect(comment?.feed).toEqual({ id: feedIds.events, label: 'Events & Meetups', slug: 'events--meetups' });
    expect(comment?.references).toEqual({
      mentioned_chat_users: [
        { profile_id: profileIds.ada, preferred_name: 'Ada Lovelace', chat_user_id: 'U0ADA00001' },
      ],
      mentioned_chat_channels: [],
      custom_emojis: [],
      urls: [
        {
          order_seen: 0,
          is_embedded_media: true,
          is_image: true,
          is_video: false,
          url: 'https://img.example.com/a.gif',
        },
      ],
    });
  });
});
