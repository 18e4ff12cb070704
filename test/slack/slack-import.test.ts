// `hearth slack import`: workspace exports the test builds (every layout and quirk of slack-workspace.ts) imported
// through the command, then read back through the API with exact values; re-imports change nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { general, MARCH_1, ts, workspaceEntries, type WorkspaceOptions } from '../helpers/slack-workspace.js';
import { writeZip, type ZipEntry } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-'));
let t: TestApp;
let zipCount = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function exportZip(options: WorkspaceOptions = {}, entries?: ZipEntry[]): string {
  return writeZip(join(dir, `export-${++zipCount}.zip`), entries ?? workspaceEntries(options));
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url },
    { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
  );
  return { code, out, err };
}

/** A new community and a read token of it. */
async function community(slug: string) {
  const id = await t.community(slug);
  return { id, slug, token: await t.token(id) };
}

const importInto = (slug: string, zip: string, ...flags: string[]) =>
  run(['slack', 'import', '--community', slug, zip, '--domain', 'acme', '--quiet', ...flags]);

async function data(token: string, path: string) {
  const res = await t.get(`/admin/v0${path}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

type Row = { id: string };
/** A post or comment as answered, its nested objects loosely typed. */
type Answer = Row &
  Record<string, unknown> & {
    author: Record<string, unknown>;
    chat_message: Record<string, unknown>;
    feed: Record<string, unknown>;
  };
/** Every answer about the community's feeds, posts and comments. */
async function answers(token: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const feeds = await data(token, '/feeds?per_page=100');
  out.push(feeds);
  for (const feed of feeds.records as Row[]) {
    const posts = await data(token, `/feeds/${feed.id}/posts?per_page=100&sort=oldest`);
    out.push(posts);
    for (const post of posts.records as Row[]) out.push(await data(token, `/posts/${post.id}`));
  }
  out.push(await data(token, '/search?type=comment&q=reply&per_page=100'));
  out.push(await data(token, '/search?type=post&q=gardens'));
  return out;
}

const GENERAL = 'c087e019-c31d-5da3-a63c-5d2e4fd88402';
const RANDOM = 'b37e23b4-3f56-5ab0-99a4-0018fa0504f3';
const ALICE = '10f69f93-c077-54f4-9d02-bd3939a3f3ae';
const BOB = 'bf631753-d44b-5518-b606-1403a42a9f1b';
const DAVE = '404ae1c7-ff90-5d67-8201-2f827680a6ab';
const PARENT_ID = 'noio115mzlb3';
const PARENT_MESSAGE = '139a8c2a-8ea0-5dab-a768-e5e15f801527';
const noReferences = { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] };
const summary = [
  'Slack: 13 messages in 2 channels, 3 reactions.',
  'Skipped 2 messages by subtype: channel_join 1, channel_topic 1.',
  'Left out 1 thread reply whose parent is missing: #general 1771891200.000900.',
  "Files: 3 attached (counted, not copied), 1 of them hidden by the plan's limit.",
];

describe('hearth slack import, a standard export', () => {
  let ws: Awaited<ReturnType<typeof community>>;
  let first: unknown[];

  beforeAll(async () => {
    ws = await community('ws');
    const result = await importInto('ws', exportZip());
    expect(result.code).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out[0]).toMatch(
      /^Imported 18 records into 'ws': 2 feeds, 6 profiles, 7 posts, 3 comments in \d+\.\d s \(\d+ records\/s\)\.$/,
    );
    expect(result.out.slice(1)).toEqual(summary);
    first = await answers(ws.token);
  });

  it('makes public channels feeds, with purpose and topic as blocks; private channels and DMs stay out', async () => {
    const feeds = await data(ws.token, '/feeds');
    expect(
      feeds.records.map((f: Record<string, unknown>) => [f.id, f.label, f.slug, f.is_archived, f.is_unlisted]),
    ).toEqual([
      [GENERAL, 'general', 'general', false, false],
      [RANDOM, 'random', 'random', true, false],
    ]);
    const [general] = feeds.records;
    expect(general).toMatchObject({
      chat_channel_id: 'C01GENERAL',
      chat_channel_name: 'general',
      chat_channel_num_members: 4,
      chat_channel_purpose_chat_blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'News for everyone, ask ' },
                { type: 'user', user_id: 'U01ALICE' },
              ],
            },
          ],
        },
      ],
      chat_channel_purpose_chat_blocks_references: {
        ...noReferences,
        mentioned_chat_users: [{ profile_id: ALICE, preferred_name: 'alice', chat_user_id: 'U01ALICE' }],
      },
      chat_channel_topic_chat_blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Say hi ' },
                { type: 'emoji', name: 'wave', unicode: '1f44b' },
              ],
            },
          ],
        },
      ],
    });
    expect(feeds.records[1]).toMatchObject({
      chat_channel_purpose_chat_blocks: null,
      chat_channel_topic_chat_blocks: null,
    });
    expect((await data(ws.token, '/search?type=post&q=direct')).records).toEqual([]);
    expect((await data(ws.token, '/search?type=post&q=owners')).records).toEqual([]);
  });

  it('makes top-level messages posts: text rendered, titled, edited, counted, bots and deleted users as authors', async () => {
    const posts = await data(ws.token, `/feeds/${GENERAL}/posts?sort=oldest`);
    const brief = (p: Answer) => [
      p.id,
      p.created_at,
      p.updated_at,
      p.title,
      p.body_plaintext,
      p.author.chat_user_id,
      p.author.preferred_name,
      p.author.chat_is_bot,
      p.author.is_deactivated,
      p.reactions_count,
      p.comments_count,
      p.file_attachments_count,
      p.latest_activity_at,
      p.chat_message.username,
      p.chat_message.icon,
      p.chat_message.permalink,
    ];
    expect(posts.records.map(brief)).toEqual([
      [
        PARENT_ID,
        '2026-03-01 09:00:00.000100+00',
        '2026-03-01 09:00:00.000100+00',
        'Welcome to the new space @Bob Brown 🎉 see the guide',
        'Welcome to the new space @Bob Brown 🎉 see the guide',
        'U01ALICE',
        'alice',
        false,
        false,
        3,
        3,
        0,
        '2026-03-03 09:00:00.001200+00',
        'alice',
        null,
        'https://acme.slack.com/archives/C01GENERAL/p1772355600000100',
      ],
      [
        'xj3snc48jpik',
        '2026-03-01 10:00:00.000300+00',
        '2026-03-01 11:00:00.000000+00',
        'Heads up @here: see #random & the docs 🎉 today',
        'Heads up @here: see #random & the docs 🎉 today',
        'U02BOB',
        'Bob Brown',
        false,
        false,
        0,
        0,
        0,
        '2026-03-01 10:00:00.000300+00',
        'bob',
        null,
        'https://acme.slack.com/archives/C01GENERAL/p1772359200000300',
      ],
      [
        'l78epmxj0mzf',
        '2026-03-01 11:00:00.000400+00',
        '2026-03-01 11:00:00.000400+00',
        'Deployed v1.2 to production',
        'Deployed v1.2 to production',
        'B09DEPLOY',
        'deploybot',
        true,
        false,
        0,
        0,
        0,
        '2026-03-01 11:00:00.000400+00',
        'deploybot',
        'https://img.example/deploy.png',
        'https://acme.slack.com/archives/C01GENERAL/p1772362800000400',
      ],
      [
        '9upo0lo7juog',
        '2026-03-01 12:00:00.000500+00',
        '2026-03-01 12:00:00.000500+00',
        'This opening line of a message goes on and on well past the eighty characters…',
        'This opening line of a message goes on and on well past the eighty characters of a title\nand a second line',
        'W05GINA',
        'Gina G',
        false,
        false,
        0,
        0,
        0,
        '2026-03-01 12:00:00.000500+00',
        'gina',
        null,
        'https://acme.slack.com/archives/C01GENERAL/p1772366400000500',
      ],
      [
        'jmjhj3a6e93j',
        '2026-03-02 11:00:00.000900+00',
        '2026-03-02 11:00:00.000900+00',
        'Last words from Dave',
        'Last words from Dave\n- Plan',
        'U03DAVE',
        'Dave Davis',
        false,
        true,
        0,
        0,
        2,
        '2026-03-02 11:00:00.000900+00',
        'dave',
        null,
        'https://acme.slack.com/archives/C01GENERAL/p1772449200000900',
      ],
      [
        '3lgf0i4z7pky',
        '2026-03-02 12:00:00.001000+00',
        '2026-03-02 12:00:00.001000+00',
        'Photo of the board',
        '- Photo of the board',
        'U02BOB',
        'Bob Brown',
        false,
        false,
        0,
        0,
        1,
        '2026-03-02 12:00:00.001000+00',
        'bob',
        null,
        'https://acme.slack.com/archives/C01GENERAL/p1772452800001000',
      ],
    ]);
  });

  it('answers a post whole: chat_message with its blocks, the author profile, references', async () => {
    const post = await data(ws.token, `/posts/${PARENT_ID}`);
    expect(post).toEqual({
      id: PARENT_ID,
      created_at: '2026-03-01 09:00:00.000100+00',
      updated_at: '2026-03-01 09:00:00.000100+00',
      content_created_at: null,
      latest_activity_at: '2026-03-03 09:00:00.001200+00',
      title: 'Welcome to the new space @Bob Brown 🎉 see the guide',
      slug: 'welcome-to-the-new-space-bob-brown--see-the-guide',
      feed_id: GENERAL,
      post_detail_display_format: null,
      author_profile_id: ALICE,
      read_time_minutes: 1,
      source: 'slack',
      file_attachments_count: 0,
      reactions_count: 3,
      comments_count: 3,
      body_plaintext: 'Welcome to the new space @Bob Brown 🎉 see the guide',
      body_prosemirror: null,
      chat_message: {
        id: PARENT_MESSAGE,
        message_ts: 1772355600.0001,
        blocks: ((general['2026-03-01'] ?? [])[0] as { blocks: unknown }).blocks,
        markdown: 'Welcome to the new space <@U02BOB> :tada: see <https://example.com/guide|the guide>',
        permalink: 'https://acme.slack.com/archives/C01GENERAL/p1772355600000100',
        parent_chat_message_id: null,
        username: 'alice',
        icon: null,
      },
      cover_image_file_id: null,
      cover_image_url: null,
      author: {
        profile_id: ALICE,
        created_at: '2026-01-30 00:00:00.000000+00',
        preferred_name: 'alice',
        preferred_image_original: 'https://avatars.example/alice_original.png',
        preferred_image_1024: null,
        preferred_image_512: null,
        preferred_image_192: 'https://avatars.example/alice_192.png',
        preferred_image_72: 'https://avatars.example/alice_72.png',
        preferred_image_48: null,
        preferred_image_32: null,
        preferred_image_24: null,
        first_name: 'Alice',
        last_name: 'Adams',
        email: 'alice@example.com',
        chat_user_id: 'U01ALICE',
        chat_is_admin: true,
        chat_is_bot: false,
        chat_first_name: 'Alice',
        chat_last_name: 'Adams',
        chat_image_72: 'https://avatars.example/alice_72.png',
        chat_image_original: 'https://avatars.example/alice_original.png',
        is_deactivated: false,
      },
      feed: { id: GENERAL, label: 'general', slug: 'general' },
      references: {
        ...noReferences,
        mentioned_chat_users: [{ profile_id: BOB, preferred_name: 'Bob Brown', chat_user_id: 'U02BOB' }],
        urls: [
          {
            order_seen: 0,
            is_embedded_media: false,
            is_image: false,
            is_video: false,
            url: 'https://example.com/guide',
          },
        ],
      },
    });
  });

  it('makes thread replies comments, across day files, a broadcast reply once, never a post', async () => {
    const comments = await data(ws.token, '/search?type=comment&q=reply OR thanks OR channel&per_page=100');
    const brief = (c: Answer) => [
      c.id,
      c.created_at,
      c.parent_post_id,
      c.parent_comment_id,
      c.author_profile_id,
      c.body_plaintext,
      c.chat_message.parent_chat_message_id,
      c.chat_message.permalink,
    ];
    expect(
      comments.records.map(brief).sort((a: string[], b: string[]) => (a[1] ?? '').localeCompare(b[1] ?? '')),
    ).toEqual([
      [
        expect.stringMatching(/^[a-z0-9]{12}$/),
        '2026-03-02 10:00:00.000600+00',
        PARENT_ID,
        null,
        BOB,
        'Thanks @alice!',
        PARENT_MESSAGE,
        'https://acme.slack.com/archives/C01GENERAL/p1772445600000600?thread_ts=1772355600.000100&cid=C01GENERAL',
      ],
      [
        expect.stringMatching(/^[a-z0-9]{12}$/),
        '2026-03-02 10:01:00.000700+00',
        PARENT_ID,
        null,
        ALICE,
        'Also sent to the channel',
        PARENT_MESSAGE,
        'https://acme.slack.com/archives/C01GENERAL/p1772445660000700?thread_ts=1772355600.000100&cid=C01GENERAL',
      ],
      [
        '7eualg29hnye',
        '2026-03-03 09:00:00.001200+00',
        PARENT_ID,
        null,
        DAVE,
        'Late reply 👍🏼',
        PARENT_MESSAGE,
        'https://acme.slack.com/archives/C01GENERAL/p1772528400001200?thread_ts=1772355600.000100&cid=C01GENERAL',
      ],
    ]);
    expect((await data(ws.token, '/search?type=post&q=channel')).records).toEqual([]);
    expect((await data(ws.token, '/search?type=comment&q=deleted')).records).toEqual([]);
  });

  it('finds the imported text by search', async () => {
    const found = await data(ws.token, '/search?type=post&q=gardens');
    expect(found.records.map((p: Row & { title: string }) => [p.id, p.title])).toEqual([
      ['s3af2ap58uth', 'Random thoughts about gardens'],
    ]);
  });

  it('imports the same export again without changing an answer', async () => {
    const again = await importInto('ws', exportZip());
    expect(again.code).toBe(0);
    expect(again.out.slice(1)).toEqual(summary);
    expect(await answers(ws.token)).toEqual(first);
  });

  it('takes a newer export of the workspace as updates and additions, never duplicates', async () => {
    const edited = structuredClone(general);
    const day = edited['2026-03-01'] ?? [];
    day[2] = { ...day[2], text: 'Heads up: the docs moved', edited: { user: 'U02BOB', ts: ts(3 * DAY_S, 0) } };
    edited['2026-03-04'] = [{ type: 'message', user: 'U01ALICE', ts: ts(3 * DAY_S + 3600, 100), text: 'A new week' }];
    const newer = await importInto('ws', exportZip({ days: { general: edited } }));
    expect(newer.code).toBe(0);
    const posts = await data(ws.token, `/feeds/${GENERAL}/posts?sort=oldest&per_page=100`);
    expect(posts.total_records).toBe(7);
    expect(posts.records.map((p: Record<string, string>) => [p.id, p.title, p.updated_at])).toEqual([
      [PARENT_ID, 'Welcome to the new space @Bob Brown 🎉 see the guide', '2026-03-01 09:00:00.000100+00'],
      ['xj3snc48jpik', 'Heads up: the docs moved', '2026-03-04 00:00:00.000000+00'],
      ['l78epmxj0mzf', 'Deployed v1.2 to production', '2026-03-01 11:00:00.000400+00'],
      [
        '9upo0lo7juog',
        'This opening line of a message goes on and on well past the eighty characters…',
        '2026-03-01 12:00:00.000500+00',
      ],
      ['jmjhj3a6e93j', 'Last words from Dave', '2026-03-02 11:00:00.000900+00'],
      ['3lgf0i4z7pky', 'Photo of the board', '2026-03-02 12:00:00.001000+00'],
      [expect.stringMatching(/^[a-z0-9]{12}$/), 'A new week', '2026-03-04 01:00:00.000100+00'],
    ]);
    expect((await data(ws.token, `/posts/${PARENT_ID}`)).comments_count).toBe(3);
  });
});

const DAY_S = 86_400;

describe('hearth slack import, options', () => {
  it('imports private channels with --include-private, as unlisted feeds; direct messages never', async () => {
    const c = await community('private');
    const result = await importInto('private', exportZip(), '--include-private');
    expect(result.out[0]).toMatch(/^Imported 20 records into 'private': 3 feeds, 6 profiles, 8 posts, 3 comments in/);
    const feeds = await data(c.token, '/feeds?per_page=100');
    expect(feeds.records.map((f: Record<string, unknown>) => [f.label, f.is_unlisted, f.chat_channel_id])).toEqual([
      ['general', false, 'C01GENERAL'],
      ['owners', true, 'G01SECRET'],
      ['random', false, 'C02RANDOM'],
    ]);
    const owners = await data(c.token, '/search?type=post&q=owners');
    expect(owners.records.map((p: Record<string, string>) => p.body_plaintext)).toEqual(['Owners meeting at five']);
    expect((await data(c.token, '/search?type=post&q=direct')).records).toEqual([]);
  });

  it('imports only the channels named with --channels, and names a channel the export lacks', async () => {
    const c = await community('some');
    const result = await importInto('some', exportZip(), '--channels', '#random');
    expect(result.out).toEqual([
      expect.stringMatching(/^Imported 7 records into 'some': 1 feeds, 5 profiles, 1 posts in/),
      'Slack: 1 messages in 1 channels, 0 reactions.',
    ]);
    expect((await data(c.token, '/feeds')).records.map((f: Record<string, string>) => f.label)).toEqual(['random']);
    expect(await importInto('some', exportZip(), '--channels', 'random,owners,nope')).toEqual({
      code: 1,
      out: [],
      err: [
        `hearth: Cannot import '${join(dir, `export-${zipCount}.zip`)}': no channel 'owners', 'nope' in the source (private channels need --include-private).`,
      ],
    });
  });

  it('checks the export with --dry-run and writes nothing', async () => {
    const c = await community('dry');
    const result = await importInto('dry', exportZip(), '--dry-run');
    expect(result.out).toEqual([
      "Checked 18 records: 2 feeds, 6 profiles, 7 posts, 3 comments; all would import into 'dry' (dry run: nothing was written).",
      ...summary,
    ]);
    expect((await data(c.token, '/feeds')).records).toEqual([]);
  });
});

describe('hearth slack import, layouts', () => {
  let standard: unknown[];
  beforeAll(async () => {
    const c = await community('layout-standard');
    await importInto('layout-standard', exportZip());
    standard = await answers(c.token);
  });

  for (const layout of ['nested', 'grid'] as const) {
    it(`answers a ${layout} export as the standard one`, async () => {
      const c = await community(`layout-${layout}`);
      const result = await importInto(`layout-${layout}`, exportZip({ layout }));
      expect(result.out.slice(1)).toEqual(summary);
      expect(await answers(c.token)).toEqual(standard);
    });
  }

  it('reads an archive made by the zip tool, its contents one folder deep', async () => {
    const root = join(dir, 'unpacked');
    for (const entry of workspaceEntries({ layout: 'nested' })) {
      const path = join(root, entry.name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, entry.data);
    }
    const zip = join(dir, 'zip-tool.zip');
    execFileSync('zip', ['-q', '-r', zip, '.'], { cwd: root });
    const c = await community('layout-zip');
    expect((await importInto('layout-zip', zip)).out.slice(1)).toEqual(summary);
    expect(await answers(c.token)).toEqual(standard);
  });

  it('reads UTF-8 names written without the UTF-8 flag, as Slack writes them, and with it', async () => {
    const channel = {
      id: 'C09CAFE',
      name: 'café-☕',
      created: MARCH_1,
      members: [],
      purpose: { value: '' },
      topic: { value: '' },
    };
    const message = [{ type: 'message', user: 'U01ALICE', ts: ts(3600, 1), text: 'Croissants at nine' }];
    for (const utf8Flag of [false, true]) {
      const slug = `utf8-${utf8Flag}`;
      const c = await community(slug);
      const entries = workspaceEntries().map((entry) =>
        entry.name === 'channels.json' ? { ...entry, data: JSON.stringify([channel]) } : entry,
      );
      entries.push({ name: 'café-☕/2026-03-01.json', data: JSON.stringify(message), utf8Flag });
      const result = await importInto(slug, exportZip({}, entries));
      expect(result.out[0]).toMatch(/: 1 feeds, 5 profiles, 1 posts in/);
      const posts = await data(c.token, '/feeds/home/posts');
      expect(posts.records.map((p: Answer) => [p.feed.label, p.feed.slug, p.body_plaintext])).toEqual([
        ['café-☕', 'caf-', 'Croissants at nine'],
      ]);
    }
  });
});

describe('hearth slack import, hostile and broken archives: a clear error naming the entry, nothing kept', () => {
  const zipWith = (name: string, data: string) => exportZip({}, [...workspaceEntries(), { name, data }]);
  const cases: [string, () => string, string][] = [
    [
      'an entry reaching outside the folders',
      () => zipWith('../escape.json', '[]'),
      "entry '../escape.json' is outside the archive's folders; nothing was imported.",
    ],
    [
      'an absolute entry name',
      () => zipWith('/etc/cron.d/x.json', '[]'),
      "entry '/etc/cron.d/x.json' is outside the archive's folders; nothing was imported.",
    ],
    [
      'a day file that is not JSON',
      () => zipWith('general/2026-03-09.json', '[{"type": "message",'),
      "entry 'general/2026-03-09.json' is not valid JSON (Expected double-quoted property name in JSON at line 1, column 21); nothing was imported.",
    ],
    [
      'a day file that is not an array',
      () => zipWith('general/2026-03-09.json', '{"messages": []}'),
      "entry 'general/2026-03-09.json' is not a JSON array; nothing was imported.",
    ],
    [
      'a message without a ts',
      () => zipWith('general/2026-03-09.json', '[{"type": "message", "text": "when?"}]'),
      "entry 'general/2026-03-09.json': message 1 is not a message object with a valid 'ts'; nothing was imported.",
    ],
    [
      'a user list that is not an array',
      () =>
        exportZip({}, [
          ...workspaceEntries().filter((e) => e.name !== 'users.json'),
          { name: 'users.json', data: '{}' },
        ]),
      "entry 'users.json' is not a JSON array; nothing was imported.",
    ],
    [
      'an archive that is no Slack export',
      () => exportZip({}, [{ name: 'notes/readme.txt', data: 'hello' }]),
      'no channels.json, users.json or org_users.json at the top of the archive or one folder down: this is not a Slack export.',
    ],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what}`, async () => {
      const slug = `hostile-${what.replace(/[^a-z]+/g, '-')}`.slice(0, 60);
      const c = await community(slug);
      const zip = make();
      expect(await importInto(slug, zip)).toEqual({
        code: 1,
        out: [],
        err: [`hearth: Cannot import '${zip}': ${message}`],
      });
      expect((await data(c.token, '/feeds')).records).toEqual([]);
    });
  }

  it('refuses a file that is not a ZIP archive', async () => {
    await community('not-zip');
    const path = join(dir, 'not.zip');
    writeFileSync(path, 'PK but not really');
    const result = await importInto('not-zip', path);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      `hearth: Cannot import '${path}': '${path}' is not a readable ZIP archive (End of central directory record signature not found. Either not a zip file, or file is truncated.).`,
    ]);
  });
});
