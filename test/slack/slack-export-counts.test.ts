// An export built to look like a real one (thousands of messages in day files of several channels, joins and topic
// changes, bots without a user, threads across days, broadcasts, orphans, files, reactions past Slack's list) and
// no test's fixture: its summary and the rows it leaves are checked against counts taken from its files here, by
// Slack's documented rules, not by the importer's code. Large enough to pass through the export thread in blocks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSlackExport } from '../../src/slack/export-import.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { writeZip, type ZipEntry } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-counts-'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A seeded generator: the same export every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const START = 1_700_000_000;
const DAYS = 24;
const CHANNELS = ['general', 'random', 'design', 'events', 'help', 'old-news'];

function exportEntries(): ZipEntry[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const users = Array.from({ length: 40 }, (_, i) => ({
    id: i === 39 ? 'W39GRID' : `U${String(i).padStart(3, '0')}`,
    name: `person${i}`,
    deleted: i % 13 === 12,
    is_bot: i === 7,
    profile: { real_name: `Person ${i}`, display_name: i % 3 === 0 ? '' : `p${i}` },
  }));
  const ids = users.map((u) => u.id);
  const channels = CHANNELS.map((name, i) => ({
    id: `C${String(i).padStart(3, '0')}${name.toUpperCase().replace('-', '')}`,
    name,
    created: START - 86_400,
    is_archived: name === 'old-news',
    members: ids.slice(0, 10 + i),
    purpose: { value: `About ${name}` },
    topic: { value: '' },
  }));
  const entries: ZipEntry[] = [
    { name: 'users.json', data: JSON.stringify(users) },
    { name: 'channels.json', data: JSON.stringify(channels) },
    { name: 'groups.json', data: JSON.stringify([{ id: 'G001SECRET', name: 'secret', created: START }]) },
    { name: 'dms.json', data: JSON.stringify([{ id: 'D001', members: ['U000', 'U001'] }]) },
    {
      name: 'secret/2023-11-15.json',
      data: JSON.stringify([{ type: 'message', user: 'U000', text: 'x', ts: `${START}.000001` }]),
    },
    {
      name: 'D001/2023-11-15.json',
      data: JSON.stringify([{ type: 'message', user: 'U001', text: 'y', ts: `${START}.000002` }]),
    },
  ];
  for (const channel of channels) {
    const tops: string[] = [];
    for (let day = 0; day < DAYS; day++) {
      const messages: Record<string, unknown>[] = [];
      const count = 20 + Math.floor(next() * 30);
      for (let n = 0; n < count; n++) {
        const ts = `${START + day * 86_400 + n * 60}.${String(Math.floor(next() * 999_999)).padStart(6, '0')}`;
        const user = pick(ids);
        const roll = next();
        const base = {
          type: 'message',
          ts,
          user,
          text: `hello <@${pick(ids)}> :tada: see <https://example.com/${n}|this> ${n}`,
        };
        if (roll < 0.05) messages.push({ ...base, subtype: 'channel_join', text: `<@${user}> has joined the channel` });
        else if (roll < 0.06) messages.push({ ...base, subtype: 'channel_topic', topic: 'new topic' });
        else if (roll < 0.07) messages.push({ ...base, subtype: 'pinned_item' });
        else if (roll < 0.075)
          messages.push({ ...base, subtype: 'tombstone', hidden: true, text: 'This message was deleted.' });
        else if (roll < 0.09) {
          const { user: _user, ...rest } = base;
          messages.push({ ...rest, subtype: 'bot_message', bot_id: 'B099FEED', username: 'feed bot' });
        } else if (roll < 0.095) {
          const { user: _user, ...rest } = base;
          messages.push(rest);
        } else if (roll < 0.11) messages.push({ ...base, thread_ts: `${START - 1000}.000100`, parent_user_id: user });
        else if (roll < 0.3 && tops.length > 0) {
          const parent = pick(tops);
          messages.push({ ...base, thread_ts: parent, ...(roll < 0.13 ? { subtype: 'thread_broadcast' } : {}) });
        } else {
          const message: Record<string, unknown> = { ...base };
          if (next() < 0.3) {
            const users = [...new Set([pick(ids), pick(ids), pick(ids)])];
            message.reactions = [
              { name: 'tada', users, count: users.length + (next() < 0.2 ? 60 : 0) },
              ...(next() < 0.3 ? [{ name: '+1', users: [pick(ids)], count: 1 }] : []),
            ];
          }
          if (next() < 0.1)
            message.files = [
              { id: `F${ts}`, name: 'a.png', permalink: `https://files.example/${ts}` },
              ...(next() < 0.3 ? [{ id: `H${ts}`, mode: 'hidden_by_limit' }] : []),
              ...(next() < 0.2 ? [{ id: `T${ts}`, mode: 'tombstone' }] : []),
            ];
          if (next() < 0.05) message.edited = { user, ts: `${START + day * 86_400 + n * 60 + 30}.000000` };
          messages.push(message);
          tops.push(ts);
        }
      }
      const date = new Date((START + day * 86_400) * 1000).toISOString().slice(0, 10);
      entries.push({ name: `${channel.name}/${date}.json`, data: JSON.stringify(messages, null, 4) });
    }
  }
  return entries;
}

const WRITTEN = new Set(['bot_message', 'file_share', 'me_message', 'thread_broadcast', 'reply_broadcast']);

/** What the export's files say, read here by Slack's rules: the counts an import of its public channels must give. */
function countsOf(entries: readonly ZipEntry[]) {
  const data = (name: string) =>
    JSON.parse(String(entries.find((e) => e.name === name)?.data)) as Record<string, unknown>[];
  const users = data('users.json');
  const channels = data('channels.json');
  const authors = new Set(users.map((u) => u.id as string));
  const skipped: Record<string, number> = {};
  let messages = 0;
  let posts = 0;
  let comments = 0;
  let orphans = 0;
  const orphansNamed: string[] = [];
  let files = 0;
  let hiddenFiles = 0;
  let reactions = 0;
  let reactionRows = 0;
  for (const channel of channels) {
    const kept = new Set<string>();
    const days = entries
      .filter((e) => e.name.startsWith(`${channel.name}/`))
      .map((e) => e.name)
      .sort();
    for (const day of days) {
      for (const m of data(day)) {
        messages++;
        const subtype = m.subtype as string | undefined;
        const author = (m.user ?? m.bot_id) as string | undefined;
        const why =
          subtype !== undefined && !WRITTEN.has(subtype) ? subtype : m.hidden ? 'hidden' : author ? null : 'no_author';
        if (why !== null) {
          skipped[why] = (skipped[why] ?? 0) + 1;
          continue;
        }
        const reply = subtype === 'thread_broadcast' || (m.thread_ts !== undefined && m.thread_ts !== m.ts);
        if (reply && !kept.has(m.thread_ts as string)) {
          orphans++;
          const name = `#${String(channel.name)} ${String(m.thread_ts)}`;
          if (orphansNamed.length < 10 && !orphansNamed.includes(name)) orphansNamed.push(name);
          continue;
        }
        if (reply) comments++;
        else {
          posts++;
          kept.add(m.ts as string);
        }
        authors.add(author as string);
        const own = ((m.files ?? []) as { mode?: string }[]).filter((f) => f.mode !== 'tombstone');
        files += own.length;
        hiddenFiles += own.filter((f) => f.mode === 'hidden_by_limit').length;
        for (const r of (m.reactions ?? []) as { users: string[]; count: number }[]) {
          const listed = new Set(r.users).size;
          reactions += Math.max(listed, r.count);
          reactionRows += listed + (r.count > listed ? 1 : 0);
        }
      }
    }
  }
  return {
    channels: channels.length,
    profiles: authors.size,
    messages,
    skipped,
    posts,
    comments,
    orphans,
    orphansNamed,
    files,
    hiddenFiles,
    reactions,
    reactionRows,
  };
}

async function tableCount(table: 'posts' | 'comments' | 'profiles' | 'feeds' | 'chat_reactions', communityId: string) {
  const row = await t.testStore.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('community_id', '=', communityId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('a Slack export no other test was written against', () => {
  it('imports with the counts its files imply, and again without a duplicate', async () => {
    const entries = exportEntries();
    const expected = countsOf(entries);
    // The export is as large as the tests intend: a stream of blocks through the export thread, not a few lines.
    expect(expected.messages).toBeGreaterThan(4000);
    // Every quirk the generator writes is there to be counted.
    expect(Object.keys(expected.skipped).sort()).toEqual([
      'channel_join',
      'channel_topic',
      'no_author',
      'pinned_item',
      'tombstone',
    ]);
    for (const n of [expected.comments, expected.orphans, expected.hiddenFiles, expected.reactionRows])
      expect(n).toBeGreaterThan(0);
    const path = writeZip(join(dir, 'workspace.zip'), entries);
    const id = await t.community('counts');
    const options = { clock: () => t.clock.now, writes: t.app.writes };
    for (const round of [1, 2]) {
      const { imported, slack } = await importSlackExport(t.testStore.store, id, path, options);
      expect(imported).toEqual({
        records: expected.profiles + expected.channels + expected.posts + expected.comments,
        feeds: expected.channels,
        profiles: expected.profiles,
        tags: 0,
        calendar_events: 0,
        posts: expected.posts,
        comments: expected.comments,
        badges: 0,
        groups: 0,
      });
      expect(slack).toEqual({
        channels: expected.channels,
        messages: expected.messages,
        skipped: expected.skipped,
        orphanReplies: expected.orphans,
        orphansNamed: expected.orphansNamed,
        files: expected.files,
        hiddenFiles: expected.hiddenFiles,
        reactions: expected.reactions,
      });
      expect(
        {
          feeds: await tableCount('feeds', id),
          profiles: await tableCount('profiles', id),
          posts: await tableCount('posts', id),
          comments: await tableCount('comments', id),
          reactions: await tableCount('chat_reactions', id),
        },
        `round ${round}`,
      ).toEqual({
        feeds: expected.channels,
        profiles: expected.profiles,
        posts: expected.posts,
        comments: expected.comments,
        reactions: expected.reactionRows,
      });
    }
  });
});
