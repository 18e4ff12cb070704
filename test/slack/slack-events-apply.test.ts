// The live mirror: events acknowledged by the request URL, then applied by the inbox applier through the write
// runner — posts, replies, broadcasts, edits (visible or not), deletions, reactions, people and channels — in or out
// of order, each once; a GET right after answers the new state (answer cache, ETag, search). Replies whose parent
// Hearth lacks wait, or fetch the thread from a local stand-in of Slack's Web API; failing events are parked.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { channelOf, feedOfChannel } from '../../src/slack/slack-feeds.js';
import { feedIdOf, messageIdOf, profileIdOf } from '../../src/slack/slack-ids.js';
import { profileOfUser } from '../../src/slack/slack-profiles.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { createInboxApplier } from '../../src/slack/inbox-applier.js';
import { slackApi } from '../../src/slack/web-api.js';
import { toStored } from '../../src/lib/timestamps.js';
import { APP_ID, envelope, postEvent } from '../helpers/slack-events.js';
import { STAND_IN_TOKEN, startStandIn, type StandIn } from '../helpers/slack-stand-in.js';
import { channels, users } from '../helpers/slack-workspace.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { SIGNING_SECRET } from '../helpers/slack-events.js';

const GENERAL = 'C01GENERAL';
let t: TestApp;
let slack: StandIn;
let communityId: string;
let token: string;
let applier: ReturnType<typeof createInboxApplier>;

beforeAll(async () => {
  t = await createTestApp();
  slack = await startStandIn();
  communityId = await t.community('acme');
  token = await t.token(communityId);
  await createSlackConnectionsService(t.testStore.store.db, () => t.clock.now).connect(communityId, {
    botToken: STAND_IN_TOKEN,
    signingSecret: SIGNING_SECRET,
    channels: ['general', 'random'],
    workspaceDomain: 'acme',
  });
  const records = [
    ...users.map((user) => profileOfUser(user)).filter((line) => line !== null),
    ...channels.map((raw) => feedOfChannel(channelOf(raw, false) ?? { id: '', name: '', isPrivate: false, raw })),
    // A channel Hearth holds but the connection does not mirror.
    { kind: 'feed', id: feedIdOf('C09OTHER'), label: 'other', chat_channel_id: 'C09OTHER', chat_channel_name: 'other' },
  ];
  await t.importRecords(communityId, records);
  applier = createInboxApplier({
    store: t.testStore.store,
    writes: t.app.writes,
    clock: () => t.clock.now,
    apiFor: (botToken) => slackApi({ token: botToken, apiUrl: slack.url, retries: 0 }),
  });
});
afterAll(async () => {
  await slack?.close();
  await t?.close();
});

const seconds = () => Math.floor(t.clock.now / 1000);

/** Sends events as Slack would (signed, acknowledged with 200), in the order given. */
async function send(...bodies: Record<string, unknown>[]) {
  for (const body of bodies) {
    const res = await postEvent(t.app, 'acme', body, { seconds: seconds() });
    expect(res.statusCode).toBe(200);
  }
}

const applyAll = () => applier.applyDue();

async function data(path: string) {
  const res = await t.get(`/admin/v0${path}`, token);
  return {
    status: res.statusCode,
    etag: res.headers.etag,
    body: res.statusCode === 200 ? res.json().data : res.json(),
  };
}

let clockTick = 0;
/** A Slack ts in the app's present, distinct each time. */
const nextTs = () => `${seconds()}.${String(++clockTick).padStart(6, '0')}`;

const message = (ts: string, text: string, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  channel: GENERAL,
  user: 'U01ALICE',
  text,
  ts,
  event_ts: ts,
  channel_type: 'channel',
  ...extra,
});
const changed = (ts: string, text: string, editedTs: string, extra: Record<string, unknown> = {}) => ({
  type: 'message',
  subtype: 'message_changed',
  hidden: true,
  channel: GENERAL,
  ts: editedTs,
  event_ts: editedTs,
  message: { type: 'message', user: 'U01ALICE', text, ts, edited: { user: 'U01ALICE', ts: editedTs }, ...extra },
  previous_message: { type: 'message', user: 'U01ALICE', text: 'before', ts },
});
const deleted = (ts: string, at: string) => ({
  type: 'message',
  subtype: 'message_deleted',
  hidden: true,
  channel: GENERAL,
  ts: at,
  event_ts: at,
  deleted_ts: ts,
});
const reaction = (type: 'reaction_added' | 'reaction_removed', ts: string, user: string, name: string, at: string) => ({
  type,
  user,
  reaction: name,
  item_user: 'U01ALICE',
  item: { type: 'message', channel: GENERAL, ts },
  event_ts: at,
});

const outcomes = async () =>
  Object.fromEntries(
    (
      await t.testStore.store.db
        .selectFrom('slack_inbox')
        .select(['event_id', 'outcome', 'state', 'attempts'])
        .where('community_id', '=', communityId)
        .execute()
    ).map((row) => [row.event_id, row]),
  );

describe('messages', () => {
  it('makes a post of a new message, answered at once by GET, its ETag and search', async () => {
    const ts = nextTs();
    const id = messageIdOf(GENERAL, ts);
    const before = await data(`/feeds/${feedIdOf(GENERAL)}/posts?per_page=1`);
    expect(await data(`/posts/${id}`)).toMatchObject({ status: 404 });
    // Slack's snapshot of the author, as message events carry it: the handle is chat_message.username.
    const userProfile = { name: 'alice.w', real_name: 'Alice Walker', display_name: 'alice' };
    await send(
      envelope(message(ts, 'Marigolds bloom in the *community* garden', { user_profile: userProfile }), 'EvMSG1'),
    );
    expect(await applyAll()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    const post = await data(`/posts/${id}`);
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({
      id,
      feed_id: feedIdOf(GENERAL),
      author: { profile_id: profileIdOf('U01ALICE'), chat_is_admin: true },
      body_plaintext: 'Marigolds bloom in the community garden',
      title: 'Marigolds bloom in the community garden',
      source: 'slack',
      comments_count: 0,
      reactions_count: 0,
      chat_message: {
        message_ts: Number(ts),
        markdown: 'Marigolds bloom in the *community* garden',
        permalink: `https://acme.slack.com/archives/C01GENERAL/p${ts.replace('.', '')}`,
        username: 'alice.w',
      },
    });
    const after = await data(`/feeds/${feedIdOf(GENERAL)}/posts?per_page=1`);
    expect(after.body.total_records).toBe(before.body.total_records + 1);
    expect(after.body.records.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(after.etag).not.toBe(before.etag);
    const search = await data('/search?type=post&q=marigolds');
    expect(search.body.records.map((r: { id: string }) => r.id)).toEqual([id]);
    // The audit trail names the event, the writer `slack`.
    const audit = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'token_id'])
      .where('subject_id', '=', 'EvMSG1')
      .execute();
    expect(audit).toEqual([{ action: 'slack.event_applied', subject_id: 'EvMSG1', token_id: 'slack' }]);
  });
});

describe('permalinks and handles', () => {
  it("builds permalinks with the workspace's domain; an edit without the author's snapshot keeps the handle", async () => {
    const parent = nextTs();
    const reply = nextTs();
    const edit = nextTs();
    const userProfile = { name: 'bob.k', real_name: 'Bob Kent' };
    await send(
      envelope(message(parent, 'Tools to lend', { user: 'U02BOB', user_profile: userProfile })),
      envelope(message(reply, 'A rake, please', { thread_ts: parent })),
      envelope(changed(parent, 'Tools to lend: a rake and a spade', edit, { user: 'U02BOB' })),
    );
    expect(await applyAll()).toEqual({ applied: 3, ignored: 0, retried: 0, parked: 0 });
    const chat = async (id: string, table: 'posts' | 'comments') => {
      const row = await t.testStore.store.db
        .selectFrom(table)
        .select('chat_message')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const value = typeof row.chat_message === 'string' ? JSON.parse(row.chat_message) : row.chat_message;
      return { permalink: value.permalink, username: value.username, markdown: value.markdown };
    };
    expect(await chat(messageIdOf(GENERAL, parent), 'posts')).toEqual({
      permalink: `https://acme.slack.com/archives/C01GENERAL/p${parent.replace('.', '')}`,
      username: 'bob.k',
      markdown: 'Tools to lend: a rake and a spade',
    });
    expect(await chat(messageIdOf(GENERAL, reply), 'comments')).toEqual({
      permalink: `https://acme.slack.com/archives/C01GENERAL/p${reply.replace('.', '')}?thread_ts=${parent}&cid=C01GENERAL`,
      username: null,
      markdown: 'A rake, please',
    });
  });
});

/** A post's answer (status 200 expected). */
async function post(ts: string) {
  const answer = await data(`/posts/${messageIdOf(GENERAL, ts)}`);
  return answer;
}

const commentRow = (ts: string) =>
  t.testStore.store.db
    .selectFrom('comments')
    .select(['id', 'post_id', 'body_plaintext', 'reactions_count'])
    .where('id', '=', messageIdOf(GENERAL, ts))
    .executeTakeFirst();

describe('threads', () => {
  it('makes a comment of a reply and one comment of a broadcast reply; the parent counts them', async () => {
    const parent = nextTs();
    const reply = nextTs();
    const broadcast = nextTs();
    await send(
      envelope(message(parent, 'Who wants seedlings?')),
      envelope(message(reply, 'Me please', { user: 'U02BOB', thread_ts: parent, parent_user_id: 'U01ALICE' })),
      envelope(
        message(broadcast, 'Me too, and everyone should know', {
          subtype: 'thread_broadcast',
          thread_ts: parent,
          root: { ts: parent, user: 'U01ALICE', text: 'Who wants seedlings?' },
        }),
      ),
    );
    expect(await applyAll()).toEqual({ applied: 3, ignored: 0, retried: 0, parked: 0 });
    const parentPost = await post(parent);
    expect(parentPost.body).toMatchObject({ comments_count: 2, latest_activity_at: expect.any(String) });
    expect(await commentRow(reply)).toEqual({
      id: messageIdOf(GENERAL, reply),
      post_id: messageIdOf(GENERAL, parent),
      body_plaintext: 'Me please',
      reactions_count: 0,
    });
    expect((await commentRow(broadcast))?.post_id).toBe(messageIdOf(GENERAL, parent));
    expect(await data(`/posts/${messageIdOf(GENERAL, broadcast)}`)).toMatchObject({ status: 404 });
    const search = await data('/search?type=comment&q=everyone');
    expect(search.body.records.map((r: { id: string }) => r.id)).toEqual([messageIdOf(GENERAL, broadcast)]);
  });

  it('keeps a reply waiting while its parent is missing and no thread can be read, then applies it once the parent comes', async () => {
    const parent = nextTs();
    const reply = nextTs();
    await send(envelope(message(reply, 'An early answer', { thread_ts: parent }), 'EvEARLY'));
    // The stand-in holds no such thread: conversations.replies answers thread_not_found.
    const first = await applyAll();
    expect(first).toEqual({ applied: 0, ignored: 0, retried: 1, parked: 0 });
    expect((await outcomes()).EvEARLY).toMatchObject({ state: 'pending', attempts: 1, outcome: null });
    expect(await commentRow(reply)).toBeUndefined();
    await send(envelope(message(parent, 'The question')));
    expect(await applyAll()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    t.clock.now += 1_000;
    expect(await applyAll()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    expect((await commentRow(reply))?.post_id).toBe(messageIdOf(GENERAL, parent));
    expect((await post(parent)).body.comments_count).toBe(1);
  });

  it('fetches the thread of a reply whose parent Hearth lacks through conversations.replies', async () => {
    const parent = nextTs();
    const older = nextTs();
    const reply = nextTs();
    slack.messages.set(GENERAL, [
      ...(slack.messages.get(GENERAL) ?? []),
      { type: 'message', user: 'U02BOB', text: 'A thread from before the app joined', ts: parent, thread_ts: parent },
      { type: 'message', user: 'U01ALICE', text: 'An older reply', ts: older, thread_ts: parent },
    ]);
    slack.calls.length = 0;
    await send(envelope(message(reply, 'A new reply', { thread_ts: parent })));
    expect(await applyAll()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    expect(slack.calls.map((call) => [call.method, call.params.channel, call.params.ts])).toEqual([
      ['conversations.replies', GENERAL, parent],
    ]);
    expect((await post(parent)).body).toMatchObject({
      body_plaintext: 'A thread from before the app joined',
      comments_count: 2,
    });
    expect((await commentRow(older))?.body_plaintext).toBe('An older reply');
  });
});

describe('edits and deletions', () => {
  it('applies an edit; an edit that changes nothing visible changes nothing (no new ETag)', async () => {
    const ts = nextTs();
    await send(envelope(message(ts, 'Tomatoes need sun')));
    await applyAll();
    const editTs = nextTs();
    await send(envelope(changed(ts, 'Tomatoes need full sun', editTs)));
    expect(await applyAll()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    const edited = await post(ts);
    expect(edited.body).toMatchObject({ body_plaintext: 'Tomatoes need full sun' });
    expect(edited.body.updated_at).not.toBe(edited.body.created_at);
    // Slack's language detection: a message_changed with the same text and no new edit.
    const again = nextTs();
    await send(
      envelope({
        type: 'message',
        subtype: 'message_changed',
        hidden: true,
        channel: GENERAL,
        ts: again,
        event_ts: again,
        message: {
          type: 'message',
          user: 'U01ALICE',
          text: 'Tomatoes need full sun',
          ts,
          edited: { user: 'U01ALICE', ts: editTs },
        },
      }),
      envelope(changed(ts, 'Tomatoes need full sun', nextTs())),
    );
    expect(await applyAll()).toEqual({ applied: 0, ignored: 2, retried: 0, parked: 0 });
    const after = await post(ts);
    expect(after.etag).toBe(edited.etag);
    expect(after.body).toEqual(edited.body);
  });

  it('keeps an edit that arrived before its original', async () => {
    const ts = nextTs();
    const editTs = nextTs();
    await send(
      envelope(changed(ts, 'Compost on Saturday, 10am', editTs)),
      envelope(message(ts, 'Compost on Saturday')),
    );
    expect(await applyAll()).toEqual({ applied: 1, ignored: 1, retried: 0, parked: 0 });
    expect((await post(ts)).body.body_plaintext).toBe('Compost on Saturday, 10am');
  });

  it('keeps a deletion that arrived before an edit and before the original', async () => {
    const ts = nextTs();
    const editTs = nextTs();
    const deleteTs = nextTs();
    await send(
      envelope(deleted(ts, deleteTs)),
      envelope(changed(ts, 'Edited', editTs)),
      envelope(message(ts, 'Original')),
    );
    expect(await applyAll()).toEqual({ applied: 1, ignored: 2, retried: 0, parked: 0 });
    expect(await post(ts)).toMatchObject({ status: 404 });
  });

  it("removes a post and a comment; a parent with replies keeps its place with Slack's deleted text", async () => {
    const lone = nextTs();
    const parent = nextTs();
    const reply = nextTs();
    const total = async () => (await data(`/feeds/${feedIdOf(GENERAL)}/posts?per_page=1`)).body.total_records;
    const feedBefore = await total();
    await send(
      envelope(message(lone, 'A lone message about beans')),
      envelope(message(parent, 'A parent about peas')),
      envelope(message(reply, 'A reply about peas', { thread_ts: parent, user: 'U02BOB' })),
    );
    await applyAll();
    expect(await total()).toBe(feedBefore + 2);
    await send(envelope(deleted(lone, nextTs())), envelope(deleted(parent, nextTs())));
    expect(await applyAll()).toEqual({ applied: 2, ignored: 0, retried: 0, parked: 0 });
    expect(await post(lone)).toMatchObject({ status: 404 });
    expect((await data('/search?type=post&q=beans')).body.records).toEqual([]);
    const kept = await post(parent);
    expect(kept.body).toMatchObject({
      body_plaintext: 'This message was deleted.',
      author: null,
      title: null,
      comments_count: 1,
    });
    expect(await total()).toBe(feedBefore + 1);
    await send(envelope(deleted(reply, nextTs())));
    await applyAll();
    expect(await commentRow(reply)).toBeUndefined();
    expect((await post(parent)).body.comments_count).toBe(0);
  });
});

describe('reactions', () => {
  it('counts each (emoji, user) once: replays, and a removal that came before its add, end right', async () => {
    const ts = nextTs();
    await send(envelope(message(ts, 'Our first harvest')));
    await applyAll();
    const addTs = nextTs();
    const removeTs = nextTs();
    const bobAdd = envelope(reaction('reaction_added', ts, 'U02BOB', 'tada', nextTs()));
    await send(
      bobAdd,
      // Slack's retry of the same event, and the same reaction delivered again as a new event.
      bobAdd,
      envelope(reaction('reaction_added', ts, 'U02BOB', 'tada', nextTs())),
      envelope(reaction('reaction_added', ts, 'U01ALICE', 'tada', nextTs())),
      // Dave's removal arrives before his add.
      envelope(reaction('reaction_removed', ts, 'U03DAVE', '+1', removeTs)),
      envelope(reaction('reaction_added', ts, 'U03DAVE', '+1', addTs)),
    );
    expect(await applyAll()).toEqual({ applied: 2, ignored: 3, retried: 0, parked: 0 });
    expect((await post(ts)).body.reactions_count).toBe(2);
    await send(envelope(reaction('reaction_removed', ts, 'U01ALICE', 'tada', nextTs())));
    await applyAll();
    expect((await post(ts)).body.reactions_count).toBe(1);
    const rows = await t.testStore.store.db
      .selectFrom('chat_reactions')
      .select(['emoji', 'chat_user_id', 'present'])
      .where('message_ts', '=', ts)
      .orderBy('chat_user_id')
      .execute();
    expect(rows.map((r) => [r.emoji, r.chat_user_id, Boolean(r.present)])).toEqual([
      ['tada', 'U01ALICE', false],
      ['tada', 'U02BOB', true],
      ['+1', 'U03DAVE', false],
    ]);
  });
});

describe('people and channels', () => {
  it('updates a profile from user_change without resetting flags the event leaves out, and sends member.updated', async () => {
    await send(
      envelope({
        type: 'user_change',
        user: {
          id: 'U01ALICE',
          team_id: 'T01ACME',
          name: 'alice',
          profile: {
            display_name: 'Alice A.',
            real_name: 'Alice Adams',
            image_72: 'https://avatars.example/alice2_72.png',
          },
        },
        event_ts: nextTs(),
      }),
      envelope({
        type: 'team_join',
        user: {
          id: 'U07NEW',
          team_id: 'T01ACME',
          name: 'nell',
          is_admin: false,
          is_bot: false,
          deleted: false,
          profile: { real_name: 'Nell New', display_name: 'nell' },
        },
        event_ts: nextTs(),
      }),
    );
    expect(await applyAll()).toEqual({ applied: 2, ignored: 0, retried: 0, parked: 0 });
    const profiles = await t.testStore.store.db
      .selectFrom('profiles')
      .select(['chat_user_id', 'preferred_name', 'chat_is_admin', 'email', 'chat_image_72'])
      .where('chat_user_id', 'in', ['U01ALICE', 'U07NEW'])
      .orderBy('chat_user_id')
      .execute();
    expect(profiles.map((p) => ({ ...p, chat_is_admin: Boolean(p.chat_is_admin) }))).toEqual([
      {
        chat_user_id: 'U01ALICE',
        preferred_name: 'Alice A.',
        chat_is_admin: true,
        email: 'alice@example.com',
        chat_image_72: 'https://avatars.example/alice2_72.png',
      },
      { chat_user_id: 'U07NEW', preferred_name: 'nell', chat_is_admin: false, email: null, chat_image_72: null },
    ]);
    const audit = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'token_id'])
      .where('subject_id', 'in', [profileIdOf('U01ALICE'), profileIdOf('U07NEW')])
      .where('token_id', '=', 'slack')
      .orderBy('action')
      .execute();
    expect(audit).toEqual([
      { action: 'member.created', token_id: 'slack' },
      { action: 'member.updated', token_id: 'slack' },
    ]);
  });

  it('renames, archives, unarchives and counts members of a feed', async () => {
    const feed = feedIdOf(GENERAL);
    const before = (await data(`/feeds/${feed}`)).body;
    await send(
      envelope({
        type: 'channel_rename',
        channel: { id: GENERAL, name: 'town-square', name_normalized: 'town-square', created: 1 },
        event_ts: nextTs(),
      }),
      envelope({ type: 'channel_archive', channel: GENERAL, user: 'U01ALICE', event_ts: nextTs() }),
      envelope({
        type: 'member_joined_channel',
        user: 'U07NEW',
        channel: GENERAL,
        channel_type: 'C',
        team: 'T01ACME',
        event_ts: nextTs(),
      }),
      envelope({
        type: 'member_joined_channel',
        user: 'U08MAX',
        channel: GENERAL,
        channel_type: 'C',
        team: 'T01ACME',
        event_ts: nextTs(),
      }),
      envelope({
        type: 'member_left_channel',
        user: 'U03DAVE',
        channel: GENERAL,
        channel_type: 'C',
        team: 'T01ACME',
        event_ts: nextTs(),
      }),
    );
    expect(await applyAll()).toEqual({ applied: 5, ignored: 0, retried: 0, parked: 0 });
    const after = (await data(`/feeds/${feed}`)).body;
    expect(after).toMatchObject({
      label: 'town-square',
      slug: before.slug,
      is_archived: true,
      chat_channel_name: 'town-square',
      chat_channel_num_members: before.chat_channel_num_members + 1,
    });
    await send(envelope({ type: 'channel_unarchive', channel: GENERAL, user: 'U01ALICE', event_ts: nextTs() }));
    await applyAll();
    expect((await data(`/feeds/${feed}`)).body.is_archived).toBe(false);
  });
});

describe('what is ignored, and what fails', () => {
  it('ignores own echoes, channels not mirrored, unknown feeds and event types, counting each', async () => {
    await send(
      envelope(
        message(nextTs(), 'Posted by Hearth itself', { bot_id: 'B0HEARTH', app_id: APP_ID, user: undefined }),
        'EvECHO',
      ),
      envelope({ ...message(nextTs(), 'Elsewhere'), channel: 'C09OTHER' }, 'EvOTHER'),
      envelope({ ...message(nextTs(), 'Nowhere'), channel: 'C77UNKNOWN' }, 'EvUNKNOWN'),
      envelope({ type: 'pin_added', channel_id: GENERAL, user: 'U01ALICE', event_ts: nextTs() }, 'EvPIN'),
      envelope(message(nextTs(), '', { subtype: 'channel_join' }), 'EvJOIN'),
    );
    expect(await applyAll()).toEqual({ applied: 0, ignored: 5, retried: 0, parked: 0 });
    const seen = await outcomes();
    expect([seen.EvECHO, seen.EvOTHER, seen.EvUNKNOWN, seen.EvPIN, seen.EvJOIN].map((row) => row?.outcome)).toEqual([
      'ignored: own echo',
      'ignored: channel not mirrored',
      'ignored: channel not mirrored',
      'ignored: pin_added is not mirrored',
      'ignored: channel_join',
    ]);
  });

  /** The command line on the test's store and clock; what it wrote. */
  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(
      args,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { DATABASE_URL: t.testStore.url, SLACK_API_URL: slack.url },
      { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
      () => t.clock.now,
    );
    return { code, out, err };
  }

  it('parks an event after its last attempt without holding up the others', async () => {
    const parent = nextTs();
    await send(envelope(message(nextTs(), 'Waiting forever', { thread_ts: parent }), 'EvPARK'));
    for (let attempt = 0; attempt < 7; attempt++) {
      await applyAll();
      t.clock.now += 601_000;
    }
    const ts = nextTs();
    await send(envelope(message(ts, 'Still flowing')));
    expect({ counts: await applyAll(), outcomes: await outcomes() }).toMatchObject({
      counts: { applied: 1, ignored: 0, retried: 0, parked: 0 },
      outcomes: { EvPARK: { state: 'parked', attempts: 7 } },
    });
  });

  it('lists parked events with `hearth slack events --failed` and queues them again with `retry`', async () => {
    const parked = await t.testStore.store.db
      .selectFrom('slack_inbox')
      .select(['id', 'error'])
      .where('event_id', '=', 'EvPARK')
      .executeTakeFirstOrThrow();
    expect(parked.error).toBe('conversations.replies failed: An API error occurred: thread_not_found');
    expect(await run(['slack', 'events', '--failed', '--community', 'acme'])).toEqual({
      code: 0,
      out: ['id\tcommunity\ttype\tattempts\terror', `${parked.id}\tacme\tmessage\t7\t${parked.error}`],
      err: [],
    });
    expect((await run(['slack', 'events', 'retry'])).err).toEqual([
      'hearth: Name the ids to retry, or pass --all (not both).',
    ]);
    expect(await run(['slack', 'events', 'retry', parked.id])).toEqual({
      code: 0,
      out: ['1 parked event queued again.'],
      err: [],
    });
    expect((await outcomes()).EvPARK).toMatchObject({ state: 'pending', attempts: 0 });
    expect((await run(['slack', 'events', '--failed'])).out).toEqual(['id\tcommunity\ttype\tattempts\terror']);
    const applied = await run(['slack', 'events', 'apply']);
    expect(applied.out).toEqual(['Applied 0, ignored 0, to retry 1, parked 0.']);
  });

  it('gives parked events up with `hearth slack events --dismiss`, never applying them', async () => {
    const { db } = t.testStore.store;
    const parkedRow = (id: string) => ({
      id,
      community_id: communityId,
      event_id: `Ev${id}`,
      event_type: 'message',
      envelope: JSON.stringify(envelope(message(nextTs(), 'Given up'), `Ev${id}`)),
      received_at: toStored(t.clock.now),
      state: 'parked' as const,
      attempts: 7,
      next_attempt_at: toStored(t.clock.now),
      finished_at: toStored(t.clock.now),
      error: 'gone wrong',
    });
    await db
      .insertInto('slack_inbox')
      .values([parkedRow('dismiss-1'), parkedRow('dismiss-2')])
      .execute();
    const rows = () =>
      db
        .selectFrom('slack_inbox')
        .select(['id', 'state', 'outcome', 'finished_at'])
        .where('id', 'like', 'dismiss-%')
        .orderBy('id')
        .execute();
    t.clock.now += 1000;
    expect(await run(['slack', 'events', '--dismiss', 'dismiss-1', 'dismiss-2', '--community', 'acme'])).toEqual({
      code: 0,
      out: ['2 parked events dismissed.'],
      err: [],
    });
    const at = toStored(t.clock.now);
    expect(await rows()).toEqual([
      { id: 'dismiss-1', state: 'done', outcome: 'dismissed', finished_at: at },
      { id: 'dismiss-2', state: 'done', outcome: 'dismissed', finished_at: at },
    ]);
    // Not parked any more (and an id never held): named as such; nothing is applied.
    expect(await run(['slack', 'events', '--dismiss', 'dismiss-1', 'nope'])).toEqual({
      code: 1,
      out: [],
      err: ['hearth: 2 of the ids named are not parked events; 0 dismissed.'],
    });
    await applyAll();
    expect(await rows()).toEqual([
      { id: 'dismiss-1', state: 'done', outcome: 'dismissed', finished_at: at },
      { id: 'dismiss-2', state: 'done', outcome: 'dismissed', finished_at: at },
    ]);
    expect((await run(['slack', 'events', '--failed'])).out).toEqual(['id\tcommunity\ttype\tattempts\terror']);
  });
});

describe('the inbox over time', () => {
  const version = async () =>
    Number(
      (
        await t.testStore.store.db
          .selectFrom('communities')
          .select('fragment_version')
          .where('id', '=', communityId)
          .executeTakeFirstOrThrow()
      ).fragment_version,
    );

  it('applies a burst in one change, an event that fails in it rolled back alone and retried', async () => {
    const [a, bad, b] = [nextTs(), nextTs(), nextTs()];
    await send(
      envelope(message(a, 'First of the burst'), 'EvBATCH1'),
      envelope(message(bad, 'Refused by the parser \u0000 here'), 'EvBATCH2'),
      envelope(message(b, 'Last of the burst'), 'EvBATCH3'),
    );
    const before = await version();
    // Time enough for the three in one change however slow the machine is.
    const patient = createInboxApplier({
      store: t.testStore.store,
      writes: t.app.writes,
      clock: () => t.clock.now,
      apiFor: (botToken) => slackApi({ token: botToken, apiUrl: slack.url, retries: 0 }),
      changeMs: 60_000,
    });
    expect(await patient.applyDue()).toEqual({ applied: 2, ignored: 0, retried: 1, parked: 0 });
    // One change: the community's fragments moved one version for the two posts and the feed.
    expect(await version()).toBe(before + 1);
    const { EvBATCH1, EvBATCH2, EvBATCH3 } = await outcomes();
    expect([EvBATCH1, EvBATCH2, EvBATCH3]).toEqual([
      { event_id: 'EvBATCH1', outcome: 'applied', state: 'done', attempts: 1 },
      { event_id: 'EvBATCH2', outcome: null, state: 'pending', attempts: 1 },
      { event_id: 'EvBATCH3', outcome: 'applied', state: 'done', attempts: 1 },
    ]);
    expect((await data(`/posts/${messageIdOf(GENERAL, a)}`)).body.body_plaintext).toBe('First of the burst');
    expect((await data(`/posts/${messageIdOf(GENERAL, b)}`)).body.body_plaintext).toBe('Last of the burst');
    expect((await data(`/posts/${messageIdOf(GENERAL, bad)}`)).status).toBe(404);
  });

  it('deletes applied rows a day old, at most 500 a pass and once a minute, and keeps parked and pending ones', async () => {
    const { db } = t.testStore.store;
    // An applier and a clock of its own: the other tests' passes pruned within their own minute.
    let now = t.clock.now;
    const pruner = createInboxApplier({
      store: t.testStore.store,
      writes: t.app.writes,
      clock: () => now,
      apiFor: (botToken) => slackApi({ token: botToken, apiUrl: slack.url, retries: 0 }),
    });
    const old = now - 24 * 3_600_000 - 1000;
    const row = (i: number, state: 'done' | 'parked', finished: number) => ({
      id: `prune-${String(i).padStart(4, '0')}`,
      community_id: communityId,
      event_id: `EvPRUNE${i}`,
      event_type: 'message',
      envelope: '{}',
      received_at: toStored(old - 1000),
      state,
      attempts: 1,
      next_attempt_at: toStored(old - 1000),
      finished_at: toStored(finished),
    });
    const insert = async (rows: ReturnType<typeof row>[]) => {
      for (let i = 0; i < rows.length; i += 100)
        await db
          .insertInto('slack_inbox')
          .values(rows.slice(i, i + 100))
          .execute();
    };
    await insert([
      ...Array.from({ length: 502 }, (_, i) => row(i, 'done', old)),
      row(900, 'done', now - 3_600_000),
      row(901, 'parked', old),
    ]);
    const left = async () =>
      (
        await db
          .selectFrom('slack_inbox')
          .select(['event_id', 'state'])
          .where('event_id', 'like', 'EvPRUNE%')
          .orderBy('id')
          .execute()
      ).map((r) => `${r.event_id} ${r.state}`);
    await pruner.applyDue();
    expect(await left()).toEqual(['EvPRUNE500 done', 'EvPRUNE501 done', 'EvPRUNE900 done', 'EvPRUNE901 parked']);
    // A full batch deleted: the next pass prunes again at once, in the same millisecond.
    await pruner.applyDue();
    expect(await left()).toEqual(['EvPRUNE900 done', 'EvPRUNE901 parked']);
    // That pass deleted less than a batch: nothing is looked for again within the minute.
    await insert([row(902, 'done', old)]);
    now += 59_999;
    await pruner.applyDue();
    expect(await left()).toEqual(['EvPRUNE900 done', 'EvPRUNE901 parked', 'EvPRUNE902 done']);
    now += 1;
    await pruner.applyDue();
    expect(await left()).toEqual(['EvPRUNE900 done', 'EvPRUNE901 parked']);
    // The row done an hour before is a day old 23 hours later.
    now += 23 * 3_600_000 + 1000;
    await pruner.applyDue();
    expect(await left()).toEqual(['EvPRUNE901 parked']);
  });
});
