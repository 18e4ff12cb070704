// `hearth slack connect`, `status` and `sync` against a local stand-in for Slack's Web API: the connection's secrets
// never shown, every page read by cursor, a 429's Retry-After honoured, a failure mid-channel resumed at its page,
// later runs fetching only what is newer, and the answers identical to an import of the same workspace's export.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { PARENT, ts, workspaceEntries } from '../helpers/slack-workspace.js';
import { STAND_IN_TOKEN, startStandIn, type StandIn } from '../helpers/slack-stand-in.js';
import { writeZip } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-sync-'));
let t: TestApp;
let slack: StandIn;
const APP_TOKEN = 'xapp-1-A0HEARTH-1111-standinapptoken';
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5'.replace(/[yz]/g, 'e');

beforeAll(async () => {
  t = await createTestApp();
  slack = await startStandIn();
});
afterAll(async () => {
  await slack?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  slack.trouble = () => null;
  slack.calls.length = 0;
});

async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url, SLACK_API_URL: slack.url, ...env },
    { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
  );
  return { code, out, err };
}

async function data(token: string, path: string) {
  const res = await t.get(`/admin/v0${path}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

type Row = { id: string };
async function answers(token: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const feeds = await data(token, '/feeds?per_page=100');
  out.push(feeds);
  for (const feed of feeds.records as Row[]) {
    const posts = await data(token, `/feeds/${feed.id}/posts?per_page=100&sort=oldest`);
    out.push(posts);
    for (const post of posts.records as Row[]) out.push(await data(token, `/posts/${post.id}`));
  }
  out.push(await data(token, '/search?type=comment&q=reply OR thanks OR channel&per_page=100'));
  out.push(await data(token, '/search?type=post&q=gardens'));
  return out;
}

async function community(slug: string) {
  const id = await t.community(slug);
  return { id, slug, token: await t.token(id) };
}

/** A community connected to the stand-in (token from the environment), and its state folder. */
async function connected(slug: string) {
  const c = await community(slug);
  const connect = await run(['slack', 'connect', '--community', slug], { SLACK_BOT_TOKEN: STAND_IN_TOKEN });
  expect(connect).toEqual({
    code: 0,
    out: [
      `Connected '${slug}' to Slack: bot token set, signing secret not set, app-level token not set, workspace acme.slack.com, channels: all public.`,
    ],
    err: [],
  });
  // The connect's own auth.test (the workspace's domain), left out of what the sync asks.
  expect(slack.calls.map((call) => call.method)).toEqual(['auth.test']);
  slack.calls.length = 0;
  return { ...c, state: join(dir, `state-${slug}`) };
}

const sync = (slug: string, state: string, ...flags: string[]) =>
  run(['slack', 'sync', '--community', slug, '--state', state, '--page-size', '2', '--retries', '2', ...flags]);

let exported: unknown[];
let exportedReactions: unknown[];

/** The community's reaction rows, in key order, without the community. */
async function reactionRows(communityId: string) {
  return t.testStore.store.db
    .selectFrom('chat_reactions')
    .select(['chat_channel_id', 'message_ts', 'emoji', 'chat_user_id', 'changed_ts'])
    .where('community_id', '=', communityId)
    .where('present', '=', true)
    .orderBy(['chat_channel_id', 'message_ts', 'emoji', 'chat_user_id'])
    .execute();
}

beforeAll(async () => {
  const c = await community('from-export');
  const zip = writeZip(join(dir, 'export.zip'), workspaceEntries());
  expect((await run(['slack', 'import', '--community', 'from-export', zip, '--domain', 'acme', '--quiet'])).code).toBe(
    0,
  );
  exported = await answers(c.token);
  exportedReactions = await reactionRows(c.id);
  expect(exportedReactions).toHaveLength(3);
});

describe('hearth slack connect and status', () => {
  it('stores the tokens and signing secret from files or the environment and never shows them', async () => {
    await community('conn');
    const tokenFile = join(dir, 'token');
    const secretFile = join(dir, 'secret');
    const appTokenFile = join(dir, 'app-token');
    writeFileSync(tokenFile, `${STAND_IN_TOKEN}\n`);
    writeFileSync(secretFile, SECRET);
    writeFileSync(appTokenFile, `${APP_TOKEN}\n`);
    expect(await run(['slack', 'connect', '--community', 'conn'])).toEqual({
      code: 1,
      out: [],
      err: [
        'hearth: A first connect needs the bot token: set SLACK_BOT_TOKEN or pass --bot-token-file (never the token itself on the command line).',
      ],
    });
    expect(await run(['slack', 'connect', '--community', 'conn'], { SLACK_BOT_TOKEN: 'xoxp-user-token' })).toEqual({
      code: 2,
      out: [],
      err: [
        'Invalid configuration: SLACK_BOT_TOKEN: got 15 characters (not shown); allowed: a Slack bot token, xoxb-…, or unset',
      ],
    });
    const connect = await run([
      'slack',
      'connect',
      '--community',
      'conn',
      '--bot-token-file',
      tokenFile,
      '--signing-secret-file',
      secretFile,
      '--channels',
      '#general,random',
    ]);
    expect(connect).toEqual({
      code: 0,
      out: [
        "Connected 'conn' to Slack: bot token set, signing secret set, app-level token not set, workspace acme.slack.com, channels: general, random.",
      ],
      err: [],
    });
    expect(
      await run(['slack', 'connect', '--community', 'conn'], { SLACK_APP_TOKEN: 'xoxb-not-an-app-token' }),
    ).toEqual({
      code: 2,
      out: [],
      err: [
        'Invalid configuration: SLACK_APP_TOKEN: got 21 characters (not shown); allowed: a Slack app-level token, xapp-…, or unset',
      ],
    });
    // A later connect keeps what it is not given; Slack out of reach leaves the domain as it was.
    const later = await run(
      ['slack', 'connect', '--community', 'conn', '--all-public', '--app-token-file', appTokenFile],
      { SLACK_API_URL: 'http://127.0.0.1:9/api/' },
    );
    expect(later.out).toEqual([
      "Connected 'conn' to Slack: bot token set, signing secret set, app-level token set (Socket Mode), workspace acme.slack.com, channels: all public.",
    ]);
    expect(later.err).toEqual([
      expect.stringMatching(
        /^hearth: Slack's auth\.test could not be asked \(auth\.test failed: .+\); live messages' permalinks start after the next sync\.$/,
      ),
    ]);
    const status = await run(['slack', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out.join(''))).toEqual([
      {
        community: 'conn',
        bot_token: 'set',
        signing_secret: 'set',
        app_token: 'set',
        workspace: 'acme.slack.com',
        channels: 'all public',
        created_at: expect.stringMatching(WIRE),
        updated_at: expect.stringMatching(WIRE),
        synced_at: null,
      },
    ]);
    const table = await run(['slack', 'status']);
    expect(table.out).toEqual([
      'community\tbot_token\tsigning_secret\tapp_token\tworkspace\tchannels\tconnected_at\tsynced_at',
      expect.stringMatching(
        /^conn\tset\tset\tset\tacme\.slack\.com\tall public\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00\tnever$/,
      ),
    ]);
    for (const text of [...connect.out, ...later.out, ...later.err, ...status.out, ...table.out]) {
      expect(text).not.toContain(STAND_IN_TOKEN);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(APP_TOKEN);
    }
  });
});

describe('hearth slack sync', () => {
  it('reads every page of the Web API and answers as the import of the same workspace export', async () => {
    const c = await connected('synced');
    const result = await sync('synced', c.state, '--quiet');
    expect(result.err).toEqual([]);
    expect(result.out).toEqual([
      "Synced 18 records into 'synced': 2 feeds, 6 profiles, 7 posts, 3 comments.",
      'Slack: 13 messages in 2 channels, 3 reactions.',
      'Skipped 2 messages by subtype: channel_join 1, channel_topic 1.',
      "Files: 3 attached (counted, not copied), 1 of them hidden by the plan's limit.",
    ]);
    expect(await answers(c.token)).toEqual(exported);
    expect(await reactionRows(c.id)).toEqual(exportedReactions);
    const calls = slack.calls.map((call) => [
      call.method,
      call.params.channel ?? '',
      call.params.ts ?? '',
      call.params.cursor ? 'next' : 'first',
    ]);
    expect(calls).toEqual([
      ['auth.test', '', '', 'first'],
      ['users.list', '', '', 'first'],
      ['users.list', '', '', 'next'],
      ['users.list', '', '', 'next'],
      ['conversations.list', '', '', 'first'],
      ['conversations.list', '', '', 'next'],
      ...Array.from({ length: 5 }, (_, i) => ['conversations.history', 'C01GENERAL', '', i === 0 ? 'first' : 'next']),
      ['conversations.replies', 'C01GENERAL', PARENT, 'first'],
      ['conversations.replies', 'C01GENERAL', PARENT, 'next'],
      ['conversations.history', 'C02RANDOM', '', 'first'],
    ]);
    expect(existsSync(c.state)).toBe(false);
    expect(
      JSON.parse((await run(['slack', 'status', '--json'])).out.join('')).find(
        (s: { community: string }) => s.community === 'synced',
      ).synced_at,
    ).toMatch(WIRE);
  });

  it('waits out a 429 for its Retry-After, then goes on', async () => {
    const c = await connected('limited');
    slack.trouble = (call, nth) => (call.method === 'conversations.history' && nth === 2 ? { rateLimit: 1 } : null);
    const result = await sync('limited', c.state);
    expect(result.code).toBe(0);
    expect(result.err).toContain('  conversations.history: rate limited; waiting 1 s as Slack asks');
    const history = slack.calls.filter((call) => call.method === 'conversations.history');
    expect(history[2]?.params.cursor).toBe(history[1]?.params.cursor);
    expect((history[2]?.at ?? 0) - (history[1]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(await answers(c.token)).toEqual(exported);
  });

  it('keeps nothing when a channel fails part-way, and the next run resumes at the page that failed', async () => {
    const c = await connected('resumed');
    slack.trouble = (call, nth) =>
      call.method === 'conversations.history' && nth === 3 ? { error: 'internal_error' } : null;
    const failed = await sync('resumed', c.state, '--quiet');
    expect(failed).toEqual({
      code: 1,
      out: [],
      err: [
        `hearth: Sync stopped: conversations.history failed: An API error occurred: internal_error. Nothing was written; the pages fetched stay in ${c.state}, and running the sync again resumes there.`,
      ],
    });
    expect((await data(c.token, '/feeds')).records).toEqual([]);
    const failedCursor = slack.calls.filter((call) => call.method === 'conversations.history')[2]?.params.cursor;
    expect(failedCursor).toMatch(/.+/);
    slack.trouble = () => null;
    slack.calls.length = 0;
    const resumed = await sync('resumed', c.state);
    expect(resumed.code).toBe(0);
    expect(resumed.err[0]).toBe(`Resuming the sync kept in ${c.state}: 4 messages fetched so far.`);
    expect(slack.calls.slice(0, 2).map((call) => [call.method, call.params.cursor])).toEqual([
      ['auth.test', undefined],
      ['conversations.history', failedCursor],
    ]);
    expect(await answers(c.token)).toEqual(exported);
  });

  it('fetches only what is newer than the newest message held, or than --since', async () => {
    const c = await connected('later');
    expect((await sync('later', c.state, '--quiet')).code).toBe(0);
    const general = slack.messages.get('C01GENERAL') ?? [];
    const added = { type: 'message', user: 'U02BOB', ts: ts(4 * 86_400, 42), text: 'Fresh news from the stand-in' };
    general.push(added);
    slack.calls.length = 0;
    try {
      const later = await sync('later', c.state, '--quiet', '--reread-days', '0');
      expect(later.out[0]).toBe("Synced 8 records into 'later': 2 feeds, 5 profiles, 1 posts.");
      const history = slack.calls.filter((call) => call.method === 'conversations.history');
      // The newest message held of #general is a thread reply.
      expect(history.map((call) => [call.params.channel, call.params.oldest])).toEqual([
        ['C01GENERAL', ts(2 * DAY + 9 * 3600, 1200)],
        ['C02RANDOM', ts(13 * 3600, 100)],
      ]);
      const posts = await data(c.token, '/feeds/home/posts?per_page=100');
      // Home leaves out the archived #random: general's six posts and the new one.
      expect(posts.total_records).toBe(7);
      expect(posts.records[0].body_plaintext).toBe('Fresh news from the stand-in');

      slack.calls.length = 0;
      expect((await sync('later', c.state, '--quiet', '--since', '2026-03-02')).code).toBe(0);
      expect(
        slack.calls.filter((call) => call.method === 'conversations.history').map((call) => call.params.oldest),
      ).toEqual(['1772409600.000000', '1772409600.000000', '1772409600.000000', '1772409600.000000']);
      expect((await data(c.token, '/feeds/home/posts?per_page=100')).total_records).toBe(7);
    } finally {
      general.pop();
    }
  });

  it('reads again the threads of the days before the newest message held whose latest reply is newer', async () => {
    const c = await connected('threads');
    expect((await sync('threads', c.state, '--quiet')).code).toBe(0);
    const general = slack.messages.get('C01GENERAL') ?? [];
    const reply = (at: number, text: string) => ({
      type: 'message',
      user: 'U02BOB',
      ts: ts(at, 7),
      thread_ts: PARENT,
      parent_user_id: 'U01ALICE',
      text,
    });
    const comments = async () =>
      (await data(c.token, '/search?type=comment&q=later&per_page=100')).records.map(
        (r: { body_plaintext: string; parent_post_id: string }) => [r.parent_post_id, r.body_plaintext],
      );
    const replies = () =>
      slack.calls.filter((call) => call.method === 'conversations.replies').map((call) => call.params.ts);
    general.push(reply(4 * DAY, 'A reply days later'));
    try {
      slack.calls.length = 0;
      const later = await sync('threads', c.state, '--quiet');
      expect(later.out[0]).toBe("Synced 19 records into 'threads': 2 feeds, 6 profiles, 7 posts, 4 comments.");
      // Each channel's history from 30 days before the newest message held of it, every page.
      const history = slack.calls.filter((call) => call.method === 'conversations.history');
      expect([...new Set(history.map((call) => `${call.params.channel} ${call.params.oldest}`))]).toEqual([
        `C01GENERAL ${ts(2 * DAY + 9 * 3600 - 30 * DAY, 1200)}`,
        `C02RANDOM ${ts(13 * 3600 - 30 * DAY, 100)}`,
      ]);
      // The thread's parent came again with a latest_reply past what was held: its replies were read again.
      expect(replies()).toEqual([PARENT, PARENT, PARENT]);
      expect(await comments()).toEqual([['noio115mzlb3', 'A reply days later']]);
      expect((await data(c.token, '/posts/noio115mzlb3')).comments_count).toBe(4);

      // Nothing newer: the parent is read again, its replies are not.
      slack.calls.length = 0;
      expect((await sync('threads', c.state, '--quiet')).code).toBe(0);
      expect(replies()).toEqual([]);

      // Without the window, a reply to an older thread is missed; the next run with it brings the reply in.
      general.push(reply(5 * DAY, 'Another reply even later'));
      slack.calls.length = 0;
      expect((await sync('threads', c.state, '--quiet', '--reread-days', '0')).code).toBe(0);
      expect(replies()).toEqual([]);
      expect((await data(c.token, '/posts/noio115mzlb3')).comments_count).toBe(4);
      expect((await sync('threads', c.state, '--quiet', '--reread-days', '10')).code).toBe(0);
      expect((await data(c.token, '/posts/noio115mzlb3')).comments_count).toBe(5);
      expect(await comments()).toEqual([
        ['noio115mzlb3', 'Another reply even later'],
        ['noio115mzlb3', 'A reply days later'],
      ]);
    } finally {
      general.splice(general.length - 2, 2);
    }
  });

  it('names a record the import refuses by its channel, page and message; nothing is kept', async () => {
    const c = await connected('refused');
    const general = slack.messages.get('C01GENERAL') ?? [];
    general.push({ type: 'message', user: 'U02BOB', ts: ts(4 * DAY, 9), text: 'A NUL \u0000 here' });
    try {
      expect(await sync('refused', c.state, '--quiet')).toEqual({
        code: 1,
        out: [],
        err: [
          `hearth: Import failed, nothing was kept: #general, conversations.history page 5: message 1 (ts ${ts(4 * DAY, 9)}): post: title must not contain the NUL character. The pages fetched stay in ${c.state}.`,
        ],
      });
      expect((await data(c.token, '/feeds')).records).toEqual([]);
    } finally {
      general.pop();
    }
  });

  it('refuses a community without a connection', async () => {
    await community('unconnected');
    expect(await sync('unconnected', join(dir, 'none'))).toEqual({
      code: 1,
      out: [],
      err: ["hearth: 'unconnected' has no Slack connection: run hearth slack connect --community unconnected first."],
    });
  });
});

const DAY = 86_400;
const WIRE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/;
