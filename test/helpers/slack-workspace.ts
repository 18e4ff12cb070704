// A small Slack workspace as its export holds it (users, channels, day files), with the quirks an import must
// handle: threads across day files, a broadcast reply, a reply whose parent is gone, edits, bots, a deleted user, a
// Grid user id, `<!here|here>`, files hidden by the plan's limit. Laid out as the standard export, one folder deep,
// or as Enterprise Grid's; written as a ZIP by zip-writer.ts.
import type { ZipEntry } from './zip-writer.js';

export const DAY = 86_400;
/** 2026-03-01T00:00:00Z. */
export const MARCH_1 = 1_772_323_200;
export const ts = (seconds: number, micros: number) => `${MARCH_1 + seconds}.${String(micros).padStart(6, '0')}`;

const image = (who: string, size: string) => `https://avatars.example/${who}_${size}.png`;

export const users = [
  {
    id: 'U01ALICE',
    team_id: 'T01ACME',
    name: 'alice',
    real_name: 'Alice Adams',
    is_admin: true,
    updated: MARCH_1 - 30 * DAY,
    profile: {
      display_name: 'alice',
      real_name: 'Alice Adams',
      first_name: 'Alice',
      last_name: 'Adams',
      email: 'alice@example.com',
      image_72: image('alice', '72'),
      image_192: image('alice', '192'),
      image_original: image('alice', 'original'),
    },
  },
  {
    id: 'U02BOB',
    team_id: 'T01ACME',
    name: 'bob',
    real_name: 'Bob Brown',
    updated: MARCH_1 - 20 * DAY,
    profile: {
      display_name: '',
      real_name: 'Bob Brown',
      first_name: 'Bob',
      last_name: 'Brown',
      image_72: image('bob', '72'),
      image_512: image('bob', '512'),
    },
  },
  {
    id: 'U03DAVE',
    team_id: 'T01ACME',
    name: 'dave',
    deleted: true,
    updated: MARCH_1 - 10 * DAY,
    profile: { real_name: 'Dave Davis', image_72: image('dave', '72') },
  },
  {
    id: 'U04HELPER',
    team_id: 'T01ACME',
    name: 'helper',
    is_bot: true,
    updated: MARCH_1 - 40 * DAY,
    profile: { real_name: 'Helper', bot_id: 'B04HELPER', image_72: image('helper', '72') },
  },
  {
    id: 'W05GINA',
    team_id: 'T01ACME',
    name: 'gina',
    updated: MARCH_1 - 5 * DAY,
    profile: { display_name: 'Gina G', real_name: 'Gina Green', image_72: image('gina', '72') },
  },
];

export const channels = [
  {
    id: 'C01GENERAL',
    name: 'general',
    created: MARCH_1 - 60 * DAY,
    creator: 'U01ALICE',
    is_archived: false,
    is_general: true,
    members: ['U01ALICE', 'U02BOB', 'U03DAVE', 'W05GINA'],
    purpose: { value: 'News for everyone, ask <@U01ALICE>', creator: 'U01ALICE', last_set: MARCH_1 - 60 * DAY },
    topic: { value: 'Say hi :wave:', creator: 'U01ALICE', last_set: MARCH_1 - 60 * DAY },
  },
  {
    id: 'C02RANDOM',
    name: 'random',
    created: MARCH_1 - 50 * DAY,
    creator: 'U01ALICE',
    is_archived: true,
    members: ['U01ALICE', 'U02BOB'],
    purpose: { value: '', creator: '', last_set: 0 },
    topic: { value: '', creator: '', last_set: 0 },
  },
];

export const groups = [
  {
    id: 'G01SECRET',
    name: 'owners',
    created: MARCH_1 - 40 * DAY,
    is_archived: false,
    members: ['U01ALICE', 'U02BOB'],
    purpose: { value: 'Owners only', creator: 'U01ALICE', last_set: 0 },
    topic: { value: '', creator: '', last_set: 0 },
  },
];

const richText = (...elements: object[]) => [
  { type: 'rich_text', block_id: 'b1', elements: [{ type: 'rich_text_section', elements }] },
];

export const PARENT = ts(9 * 3600, 100);
const MISSING_PARENT = ts(-5 * DAY, 900);

/** general's day files; the first message is the parent of a thread whose replies sit in the next two days. */
export const general: Record<string, object[]> = {
  '2026-03-01': [
    {
      type: 'message',
      user: 'U01ALICE',
      ts: PARENT,
      thread_ts: PARENT,
      reply_count: 3,
      reply_users_count: 3,
      latest_reply: ts(DAY + 10 * 3600 + 2 * 60, 1200),
      text: 'Welcome to the new space <@U02BOB> :tada: see <https://example.com/guide|the guide>',
      blocks: richText(
        { type: 'text', text: 'Welcome to the new space ' },
        { type: 'user', user_id: 'U02BOB' },
        { type: 'text', text: ' ' },
        { type: 'emoji', name: 'tada', unicode: '1f389' },
        { type: 'text', text: ' see ' },
        { type: 'link', url: 'https://example.com/guide', text: 'the guide' },
      ),
      reactions: [
        { name: '+1', users: ['U02BOB', 'U03DAVE'], count: 2 },
        { name: 'tada', users: ['U02BOB'], count: 1 },
      ],
    },
    {
      type: 'message',
      subtype: 'channel_join',
      user: 'U02BOB',
      ts: ts(9 * 3600 + 60, 200),
      text: '<@U02BOB> has joined the channel',
    },
    {
      type: 'message',
      user: 'U02BOB',
      ts: ts(10 * 3600, 300),
      text: 'Heads up <!here|here>: see <#C02RANDOM|random> &amp; <https://hearth.example/docs|the docs> :tada: *today*',
      edited: { user: 'U02BOB', ts: ts(11 * 3600, 0) },
    },
    {
      type: 'message',
      subtype: 'bot_message',
      bot_id: 'B09DEPLOY',
      username: 'deploybot',
      icons: { image_72: 'https://img.example/deploy.png' },
      ts: ts(11 * 3600, 400),
      text: 'Deployed *v1.2* to production',
    },
    {
      type: 'message',
      user: 'W05GINA',
      ts: ts(12 * 3600, 500),
      text: 'This opening line of a message goes on and on well past the eighty characters of a title\nand a second line',
    },
  ],
  '2026-03-02': [
    {
      type: 'message',
      user: 'U02BOB',
      ts: ts(DAY + 10 * 3600, 600),
      thread_ts: PARENT,
      parent_user_id: 'U01ALICE',
      text: 'Thanks <@U01ALICE>!',
    },
    {
      type: 'message',
      subtype: 'thread_broadcast',
      user: 'U01ALICE',
      ts: ts(DAY + 10 * 3600 + 60, 700),
      thread_ts: PARENT,
      root: { user: 'U01ALICE', ts: PARENT, reply_count: 3 },
      text: 'Also sent to the channel',
    },
    {
      type: 'message',
      user: 'U02BOB',
      ts: ts(DAY + 10 * 3600 + 120, 800),
      thread_ts: MISSING_PARENT,
      parent_user_id: 'U01ALICE',
      text: 'A reply to something deleted',
    },
    {
      type: 'message',
      user: 'U03DAVE',
      ts: ts(DAY + 11 * 3600, 900),
      text: 'Last words from Dave',
      files: [
        {
          id: 'F01PLAN',
          name: 'plan.pdf',
          title: 'Plan',
          mode: 'hosted',
          permalink: 'https://acme.slack.com/files/U03DAVE/F01PLAN/plan.pdf',
        },
        { id: 'F02OLD', mode: 'hidden_by_limit' },
        { id: 'F03GONE', mode: 'tombstone' },
      ],
    },
    {
      type: 'message',
      subtype: 'file_share',
      user: 'U02BOB',
      ts: ts(DAY + 12 * 3600, 1000),
      text: '',
      files: [
        {
          id: 'F04BOARD',
          name: 'board.jpg',
          title: 'Photo of the board',
          mode: 'hosted',
          permalink: 'https://acme.slack.com/files/U02BOB/F04BOARD/board.jpg',
        },
      ],
    },
    {
      type: 'message',
      subtype: 'channel_topic',
      user: 'U01ALICE',
      ts: ts(DAY + 12 * 3600 + 60, 1100),
      text: 'set the channel topic: Say hi :wave:',
      topic: 'Say hi :wave:',
    },
  ],
  '2026-03-03': [
    {
      type: 'message',
      user: 'U03DAVE',
      ts: ts(2 * DAY + 9 * 3600, 1200),
      thread_ts: PARENT,
      parent_user_id: 'U01ALICE',
      text: 'Late reply :+1::skin-tone-3:',
    },
  ],
};

export const random: Record<string, object[]> = {
  '2026-03-01': [{ type: 'message', user: 'U01ALICE', ts: ts(13 * 3600, 100), text: 'Random thoughts about gardens' }],
};

export const owners: Record<string, object[]> = {
  '2026-03-01': [{ type: 'message', user: 'U02BOB', ts: ts(14 * 3600, 100), text: 'Owners meeting at five' }],
};

const dm: Record<string, object[]> = {
  '2026-03-01': [{ type: 'message', user: 'U02BOB', ts: ts(15 * 3600, 100), text: 'A direct message' }],
};

export interface WorkspaceOptions {
  layout?: 'standard' | 'nested' | 'grid';
  /** Replaces a channel's day files (`general` → days). */
  days?: Record<string, Record<string, object[]>>;
  /** Extra entries, as they are. */
  extra?: ZipEntry[];
}

const json = (value: unknown) => JSON.stringify(value, null, 4);

/** The export's entries, names as Slack writes them (UTF-8, no flag). */
export function workspaceEntries(options: WorkspaceOptions = {}): ZipEntry[] {
  const layout = options.layout ?? 'standard';
  const prefix = layout === 'nested' ? 'Acme Slack export Mar 1 2026 - Mar 3 2026/' : '';
  const team = layout === 'grid' ? 'teams/T01ACME/' : '';
  const folders = { general, random, owners, D01DM: dm, ...options.days };
  const entries: ZipEntry[] = [
    { name: `${prefix}${layout === 'grid' ? 'org_users.json' : 'users.json'}`, data: json(users) },
    { name: `${prefix}${team}channels.json`, data: json(channels) },
    { name: `${prefix}${team}groups.json`, data: json(groups) },
    { name: `${prefix}dms.json`, data: json([{ id: 'D01DM', members: ['U01ALICE', 'U02BOB'] }]) },
    { name: `${prefix}integration_logs.json`, data: json({ logs: [] }) },
  ];
  for (const [folder, days] of Object.entries(folders)) {
    // On Grid, random stands for a channel shared between workspaces: its folder sits at the top.
    const base = layout === 'grid' && folder !== 'random' && folder !== 'D01DM' ? `${prefix}${team}` : prefix;
    for (const [day, messages] of Object.entries(days))
      entries.push({ name: `${base}${folder}/${day}.json`, data: json(messages) });
  }
  return [...entries, ...(options.extra ?? [])];
}
