// Reactions of a Slack import kept per (message, emoji, user) in chat_reactions, counts derived from them: exact rows
// and counts after an import, a re-import, a newer export that changes reactions, a live event's rows kept over
// history's, Slack's truncated user lists, and nothing kept by an import that fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { general, PARENT, ts, workspaceEntries, type WorkspaceOptions } from '../helpers/slack-workspace.js';
import { writeZip } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-reactions-'));
let t: TestApp;
let zips = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

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

const importInto = (slug: string, options: WorkspaceOptions) =>
  run([
    'slack',
    'import',
    '--community',
    slug,
    writeZip(join(dir, `export-${++zips}.zip`), workspaceEntries(options)),
    '--domain',
    'acme',
    '--quiet',
  ]);

async function data(token: string, path: string) {
  const res = await t.get(`/admin/v0${path}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** The community's rows, in key order, as [channel, ts, emoji, user, present, changed_ts]. */
async function rows(communityId: string) {
  const found = await t.testStore.store.db
    .selectFrom('chat_reactions')
    .select(['chat_channel_id', 'message_ts', 'emoji', 'chat_user_id', 'present', 'changed_ts'])
    .where('community_id', '=', communityId)
    .orderBy('chat_channel_id')
    .orderBy('message_ts')
    .orderBy('emoji')
    .orderBy('chat_user_id')
    .execute();
  return found.map((r) => [r.chat_channel_id, r.message_ts, r.emoji, r.chat_user_id, Boolean(r.present), r.changed_ts]);
}

const PARENT_ID = 'noio115mzlb3';
const HEADS_UP = ts(10 * 3600, 300);
const HEADS_UP_ID = 'xj3snc48jpik';
const THANKS = ts(86_400 + 10 * 3600, 600);

/** general with more reactions: Bob's post has a truncated list (60 reactors, one listed), Bob's reply one. */
function generalWith(changes: (days: typeof general) => void = () => {}) {
  const days = structuredClone(general);
  const first = days['2026-03-01'] ?? [];
  first[2] = { ...first[2], reactions: [{ name: 'heart', users: ['U01ALICE'], count: 60 }] };
  const second = days['2026-03-02'] ?? [];
  second[0] = { ...second[0], reactions: [{ name: 'pray', users: ['U01ALICE', 'U01ALICE'], count: 1 }] };
  changes(days);
  return days;
}

async function counts(token: string) {
  const parent = await data(token, `/posts/${PARENT_ID}`);
  const headsUp = await data(token, `/posts/${HEADS_UP_ID}`);
  const comments = await data(token, '/search?type=comment&q=thanks');
  return [
    parent.reactions_count,
    headsUp.reactions_count,
    comments.records.map((c: { reactions_count: number }) => c.reactions_count),
  ];
}

describe('reactions of a Slack import', () => {
  let id: string;
  let token: string;

  const IMPORTED = [
    ['C01GENERAL', PARENT, '+1', 'U02BOB', true, '0'],
    ['C01GENERAL', PARENT, '+1', 'U03DAVE', true, '0'],
    ['C01GENERAL', PARENT, 'tada', 'U02BOB', true, '0'],
    ['C01GENERAL', HEADS_UP, 'heart', 'U01ALICE', true, '0'],
    ['C01GENERAL', HEADS_UP, 'heart', 'unlisted:59', true, '0'],
    ['C01GENERAL', THANKS, 'pray', 'U01ALICE', true, '0'],
  ];

  beforeAll(async () => {
    id = await t.community('reacted');
    token = await t.token(id);
  });

  it('keeps one row per (message, emoji, user) and counts them; users Slack did not list stand as one row', async () => {
    const result = await importInto('reacted', { days: { general: generalWith() } });
    expect(result.code).toBe(0);
    expect(result.out[1]).toBe('Slack: 13 messages in 2 channels, 64 reactions.');
    expect(await rows(id)).toEqual(IMPORTED);
    expect(await counts(token)).toEqual([3, 60, [1]]);
  });

  it('keeps the same rows and counts when the same export is imported again', async () => {
    expect((await importInto('reacted', { days: { general: generalWith() } })).code).toBe(0);
    expect(await rows(id)).toEqual(IMPORTED);
    expect(await counts(token)).toEqual([3, 60, [1]]);
  });

  it('takes a newer export as the reactions history now shows: removed ones go, new ones come', async () => {
    const newer = generalWith((days) => {
      const first = days['2026-03-01'] ?? [];
      first[0] = {
        ...first[0],
        reactions: [
          { name: '+1', users: ['U02BOB'], count: 1 },
          { name: 'eyes', users: ['W05GINA'], count: 1 },
        ],
      };
      first[2] = { ...first[2], reactions: [{ name: 'heart', users: ['U01ALICE', 'U02BOB'], count: 70 }] };
      const second = days['2026-03-02'] ?? [];
      second[0] = { ...second[0], reactions: [] };
    });
    expect((await importInto('reacted', { days: { general: newer } })).code).toBe(0);
    expect(await rows(id)).toEqual([
      ['C01GENERAL', PARENT, '+1', 'U02BOB', true, '0'],
      ['C01GENERAL', PARENT, 'eyes', 'W05GINA', true, '0'],
      ['C01GENERAL', HEADS_UP, 'heart', 'U01ALICE', true, '0'],
      ['C01GENERAL', HEADS_UP, 'heart', 'U02BOB', true, '0'],
      ['C01GENERAL', HEADS_UP, 'heart', 'unlisted:68', true, '0'],
    ]);
    expect(await counts(token)).toEqual([2, 70, [0]]);
  });

  it("derives counts from the rows a live event set too, and never undoes one with history's", async () => {
    const db = t.testStore.store.db;
    const live = ts(5 * 86_400, 1);
    // As the live mirror writes them: Bob's +1 removed, Alice's and Gina's rockets added, after the export was taken.
    await db
      .updateTable('chat_reactions')
      .set({ present: false, changed_ts: live })
      .where('community_id', '=', id)
      .where('message_ts', '=', PARENT)
      .where('emoji', '=', '+1')
      .execute();
    await db
      .insertInto('chat_reactions')
      .values(
        ['U01ALICE', 'W05GINA'].map((user) => ({
          community_id: id,
          chat_channel_id: 'C01GENERAL',
          message_ts: PARENT,
          emoji: 'rocket',
          chat_user_id: user,
          present: true,
          changed_ts: live,
        })),
      )
      .execute();
    const again = generalWith((days) => {
      const first = days['2026-03-01'] ?? [];
      first[0] = {
        ...first[0],
        reactions: [
          { name: '+1', users: ['U02BOB'], count: 1 },
          { name: 'eyes', users: ['W05GINA'], count: 1 },
        ],
      };
    });
    expect((await importInto('reacted', { days: { general: again } })).code).toBe(0);
    expect((await rows(id)).filter((row) => row[1] === PARENT)).toEqual([
      ['C01GENERAL', PARENT, '+1', 'U02BOB', false, live],
      ['C01GENERAL', PARENT, 'eyes', 'W05GINA', true, '0'],
      ['C01GENERAL', PARENT, 'rocket', 'U01ALICE', true, live],
      ['C01GENERAL', PARENT, 'rocket', 'W05GINA', true, live],
    ]);
    // The post's answer (its fragment rendered again) counts Gina's eyes and the two rockets, not Bob's +1.
    expect(await counts(token)).toEqual([3, 60, [1]]);
    const feed = await data(token, '/feeds/home/posts?sort=oldest&per_page=1');
    expect(feed.records[0].id).toBe(PARENT_ID);
    expect(feed.records[0].reactions_count).toBe(3);
  });

  it('keeps no reaction when the import fails', async () => {
    const other = await t.community('reacted-failed');
    const result = await importInto('reacted-failed', {
      days: { general: generalWith(), random: { '2026-03-05': { not: 'an array' } as unknown as object[] } },
    });
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      "hearth: Cannot import '" +
        join(dir, `export-${zips}.zip`) +
        "': entry 'random/2026-03-05.json' is not a JSON array; nothing was imported.",
    ]);
    expect(await rows(other)).toEqual([]);
  });
});
