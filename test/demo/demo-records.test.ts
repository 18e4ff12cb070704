import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { demoRecords, type DemoOptions } from '../../src/demo/demo-records.js';
import { SHORT_ID_PATTERN, UUID_PATTERN } from '../../src/lib/ids.js';
import { formatInZone } from '../../src/lib/time-zone.js';
import { epochOfStored, storedFromInput } from '../../src/lib/timestamps.js';
import { parseLine } from '../../src/import/parse-line.js';
import { emptyPlan } from '../../src/import/plan.js';
import { recordKinds, recordSchemas, type RecordKind } from '../../src/import/records.js';

type Rec = Record<string, unknown>;

const NOW = Date.parse('2026-03-10T15:00:00Z');
const DAY = 86_400_000;
const checkers = Object.fromEntries(
  recordKinds.map((kind) => [kind, TypeCompiler.Compile(recordSchemas[kind] as TSchema)]),
);
const shortId = new RegExp(SHORT_ID_PATTERN);
const uuid = new RegExp(UUID_PATTERN);

const all = (options: DemoOptions): Rec[] => [...demoRecords(options)];
const defaultDemo = all({ now: NOW });
const scaled = all({ now: NOW, scale: 2000 });

const ofKind = (records: Rec[], kind: RecordKind): Rec[] => records.filter((r) => r.kind === kind);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const obj = (value: unknown): Rec =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Rec) : {};
const epoch = (stamp: unknown): number => epochOfStored(storedFromInput(str(stamp)) ?? '');
const isOngoing = (event: Rec): boolean =>
  epoch(event.start_date) < NOW && event.end_date !== null && epoch(event.end_date) > NOW;

/** Every node under the blocks, containers and leaves alike. */
function nodes(blocks: unknown): Rec[] {
  return arr(blocks).flatMap((node) => [obj(node), ...nodes(obj(node).elements)]);
}

function blocksOf(record: Rec): unknown[] {
  return [
    ...arr(obj(record.chat_message).blocks),
    ...arr(record.description_chat_blocks),
    ...arr(record.recap_chat_blocks),
  ];
}

/** Checks a stream record by record; returns the first few problems found. */
function problems(records: Rec[]): string[] {
  const found: string[] = [];
  const ids: Record<RecordKind, Set<string>> = {
    feed: new Set(),
    profile: new Set(),
    tag: new Set(),
    calendar_event: new Set(),
    post: new Set(),
    comment: new Set(),
    badge: new Set(),
    group: new Set(),
  };
  const users = new Set<string>();
  const channels = new Set<string>();
  const commentPost = new Map<string, string>();
  const created = new Map<string, number>();
  const need = (ok: boolean, line: number, what: string) => {
    if (!ok && found.length < 10) found.push(`record ${line}: ${what}`);
  };
  records.forEach((record, line) => {
    const kind = record.kind as RecordKind;
    const check = checkers[kind];
    if (!check) return need(false, line, `unknown kind ${String(kind)}`);
    need(
      check.Check(record),
      line,
      `${kind} fails its schema: ${[...check.Errors(record)]
        .slice(0, 2)
        .map((e) => `${e.path} ${e.message}`)
        .join('; ')}`,
    );
    const id = str(kind === 'profile' ? record.profile_id : record.id);
    need(
      (kind === 'feed' || kind === 'profile' || kind === 'tag' ? uuid : shortId).test(id),
      line,
      `malformed id ${id}`,
    );
    need(!ids[kind].has(id), line, `duplicate ${kind} id ${id}`);
    const refs = (set: Set<string>, values: unknown[], what: string) =>
      values.forEach((v) => need(set.has(str(v)), line, `${what} ${str(v)} not defined earlier`));
    if (kind === 'profile') users.add(str(record.chat_user_id));
    if (kind === 'feed') channels.add(str(record.chat_channel_id));
    if (kind === 'calendar_event') {
      refs(ids.profile, [...arr(record.hosts), ...arr(record.speakers)], 'host/speaker');
      refs(ids.tag, arr(record.tags), 'tag');
      refs(
        ids.feed,
        arr(record.published_to).map((p) => obj(p).feed_id),
        'published_to feed',
      );
    }
    if (kind === 'post' || kind === 'comment') {
      refs(ids.profile, [record.author_profile_id], 'author');
      need(epoch(record.created_at) <= NOW, line, 'created after now');
      created.set(id, epoch(record.created_at));
    }
    if (kind === 'post') refs(ids.feed, [record.feed_id], 'feed');
    if (kind === 'comment') {
      const post = str(record.parent_post_id);
      refs(ids.post, [post], 'parent post');
      need(epoch(record.created_at) > (created.get(post) ?? Infinity), line, 'comment not after its post');
      commentPost.set(id, post);
      if (record.parent_comment_id !== null && record.parent_comment_id !== undefined) {
        const parent = str(record.parent_comment_id);
        refs(ids.comment, [parent], 'parent comment');
        need(commentPost.get(parent) === post, line, 'replies to a comment of another post');
        need(
          epoch(record.created_at) > (created.get(parent) ?? Infinity),
          line,
          'reply not after the comment it answers',
        );
      }
    }
    for (const node of nodes(blocksOf(record))) {
      if (node.type === 'user') need(users.has(str(node.user_id)), line, `mentions unknown user ${str(node.user_id)}`);
      if (node.type === 'channel')
        need(channels.has(str(node.channel_id)), line, `mentions unknown channel ${str(node.channel_id)}`);
    }
    ids[kind].add(id);
  });
  return found;
}

function counts(records: Rec[]): Record<string, number> {
  const result: Record<string, number> = {};
  for (const record of records) result[str(record.kind)] = (result[str(record.kind)] ?? 0) + 1;
  return result;
}

describe.each([
  ['the default demo', defaultDemo],
  ['a demo at scale 2000', scaled],
])('%s', (_name, records) => {
  it('passes the import schemas, with well-formed unique ids and every reference defined earlier', () => {
    expect(problems(records)).toEqual([]);
  });

  it('is accepted line by line by the import parser', () => {
    const plan = emptyPlan();
    records.forEach((record, index) =>
      parseLine(plan, JSON.stringify(record), index + 1, '2026-03-10 15:00:00.000000'),
    );
    expect(plan.records).toEqual(records.length);
  });

  it('comes in dependency order: feeds, profiles and tags, then events, then posts with their comments', () => {
    const rank: Record<string, number> = { feed: 0, profile: 0, tag: 0, calendar_event: 1, post: 2, comment: 2 };
    const ranks = records.map((r) => rank[str(r.kind)] ?? -1);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('has at least 3 events ongoing at now and events in several time zones, offsets matching their zone', () => {
    const events = ofKind(records, 'calendar_event');
    expect(events.filter(isOngoing).length).toBeGreaterThanOrEqual(3);
    const zones = new Set(events.map((e) => e.timezone ?? null));
    for (const zone of [
      'America/Los_Angeles',
      'America/New_York',
      'Europe/Berlin',
      'Asia/Tokyo',
      'Australia/Sydney',
      'UTC',
      null,
    ])
      expect(zones).toContain(zone);
    for (const event of events) {
      const zone = typeof event.timezone === 'string' ? event.timezone : null;
      expect(formatInZone(epoch(event.start_date), zone)).toEqual(event.start_date);
      if (event.end_date !== null) expect(formatInZone(epoch(event.end_date), zone)).toEqual(event.end_date);
    }
    expect(events.some((e) => e.end_date === null)).toBe(true);
  });

  it('has unique, lowercase-unique e-mails and chat ids of the chat product shape', () => {
    const profiles = ofKind(records, 'profile');
    const emails = profiles.flatMap((p) => (typeof p.email === 'string' ? [p.email.toLowerCase()] : []));
    expect(new Set(emails).size).toEqual(emails.length);
    expect(emails.length).toEqual(profiles.length - 1);
    for (const p of profiles) expect(p.chat_user_id).toMatch(/^U0[A-Z0-9]{9}$/);
    for (const f of ofKind(records, 'feed')) expect(f.chat_channel_id).toMatch(/^C0[A-Z0-9]{9}$/);
    expect(profiles.filter((p) => p.chat_is_bot === true)).toHaveLength(1);
    expect(profiles.filter((p) => p.chat_is_admin === true).length).toBeGreaterThanOrEqual(2);
  });
});

describe('the default demo', () => {
  it('holds the documented amounts', () => {
    expect(counts(defaultDemo)).toMatchObject({ feed: 6, profile: 40, tag: 9, calendar_event: 30, post: 120 });
    const feeds = ofKind(defaultDemo, 'feed');
    expect(feeds.filter((f) => f.is_archived === true)).toHaveLength(1);
    expect(feeds.filter((f) => f.is_unlisted === true)).toHaveLength(1);
    expect(new Set(ofKind(defaultDemo, 'tag').map((t) => t.tag_group_id)).size).toEqual(3);
  });

  it('spreads events from 60 days before now to 90 after, with drafts, recaps and pinned daylight-saving events', () => {
    const events = ofKind(defaultDemo, 'calendar_event');
    const starts = events.map((e) => epoch(e.start_date));
    expect(Math.min(...starts)).toBeLessThan(NOW - 45 * DAY);
    expect(Math.max(...starts)).toBeGreaterThan(NOW + 60 * DAY);
    expect(events.filter((e) => e.status !== 'published').length).toBeGreaterThan(0);
    expect(events.some((e) => e.recap_chat_blocks !== null)).toBe(true);
    const byTitle = (title: string) => events.find((e) => e.title === title) ?? {};
    expect(byTitle('Spring-Forward Hack Night')).toMatchObject({
      start_date: '2026-03-07T20:00:00-08:00',
      end_date: '2026-03-08T06:00:00-07:00',
    });
    expect(byTitle('Sommerzeit Late-Night Jam')).toMatchObject({
      start_date: '2026-03-28T22:00:00+01:00',
      end_date: '2026-03-29T04:00:00+02:00',
    });
    expect(byTitle('Stargazing Night (clocks go back)')).toMatchObject({
      start_date: '2026-04-04T22:00:00+11:00',
      end_date: '2026-04-05T04:00:00+10:00',
    });
  });

  it('writes posts with every kind of rich-text element, some long-form, some in the archived feed, with threads of 0 to 8 comments', () => {
    const types = new Set(defaultDemo.flatMap((r) => nodes(blocksOf(r)).map((n) => str(n.type))));
    for (const type of [
      'rich_text',
      'rich_text_section',
      'rich_text_list',
      'rich_text_quote',
      'rich_text_preformatted',
      'text',
      'user',
      'channel',
      'link',
      'emoji',
      'broadcast',
    ]) {
      expect(types).toContain(type);
    }
    const posts = ofKind(defaultDemo, 'post');
    expect(posts.some((p) => p.body_prosemirror && p.chat_message === null)).toBe(true);
    const archived = str(ofKind(defaultDemo, 'feed').find((f) => f.is_archived === true)?.id);
    expect(posts.filter((p) => p.feed_id === archived).length).toBeGreaterThan(3);
    for (const p of posts)
      for (const derived of [
        'body_plaintext',
        'references',
        'read_time_minutes',
        'comments_count',
        'latest_activity_at',
      ])
        expect(p).not.toHaveProperty(derived);
    const comments = ofKind(defaultDemo, 'comment');
    const perPost = posts.map((p) => comments.filter((c) => c.parent_post_id === p.id).length);
    expect(Math.max(...perPost)).toBeLessThanOrEqual(8);
    expect(perPost).toContain(0);
    expect(comments.some((c) => c.parent_comment_id !== null)).toBe(true);
    const oldest = Math.min(...posts.map((p) => epoch(p.created_at)));
    expect(oldest).toBeGreaterThanOrEqual(NOW - 120 * DAY);
  });
});

describe('scaled demos', () => {
  it('keep N posts, N/10 events, N/20 members, about 2N comments and 10 feeds', () => {
    const c = counts(scaled);
    expect(c).toMatchObject({ post: 2000, calendar_event: 200, profile: 100, feed: 10 });
    expect(c.comment).toBeGreaterThan(3600);
    expect(c.comment).toBeLessThan(4400);
    expect(counts(all({ now: NOW, scale: 40 }))).toMatchObject({ post: 40, profile: 10 });
  });

  it('use a vocabulary of thousands of words, with rare ones', () => {
    const words = new Map<string, number>();
    for (const post of ofKind(scaled, 'post')) {
      for (const node of nodes(blocksOf(post))) {
        for (const word of str(node.text)
          .toLowerCase()
          .match(/[a-z]+/g) ?? [])
          words.set(word, (words.get(word) ?? 0) + 1);
      }
    }
    expect(words.size).toBeGreaterThan(2000);
    expect([...words.values()].filter((n) => n === 1).length).toBeGreaterThan(200);
  });
});

describe('determinism', () => {
  it('gives the same records for the same options, others for another seed, and events ongoing at whatever now is', () => {
    expect(all({ now: NOW })).toEqual(defaultDemo);
    expect(all({ now: NOW, scale: 2000 })).toEqual(scaled);
    expect(JSON.stringify(all({ now: NOW, seed: 7 }))).not.toEqual(JSON.stringify(defaultDemo));
    const later = all({ now: NOW + 30 * DAY });
    expect(
      later.filter(
        (r) =>
          r.kind === 'calendar_event' && epoch(r.start_date) < NOW + 30 * DAY && epoch(r.end_date) > NOW + 30 * DAY,
      ).length,
    ).toBeGreaterThanOrEqual(3);
  });
});
