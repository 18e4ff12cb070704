// Answers assembled from fragments: byte for byte what the response schemas serialize, rewritten when
// their record or anything they embed changes, with ETags that move exactly when the answer does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import build from 'fast-json-stringify';
import { groupEventLists, toCalendarEvent } from '../../src/events/event.mapper.js';
import { eventProfiles, eventPublications, eventsByIds, eventTags } from '../../src/events/events.repository.js';
import { EventPageResponse, EventResponse } from '../../src/events/events.schemas.js';
import { toPage } from '../../src/lib/pagination.js';
import { PostPageResponse, PostResponse } from '../../src/posts/posts.schemas.js';
import { postsByIds } from '../../src/posts/posts.repository.js';
import { loadPosts } from '../helpers/load-posts.js';
import { ada, baseRecords, feedIds, profileIds } from '../../fixtures/community.js';
import { postIds, postRecords } from '../../fixtures/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let community: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community, token } = await t.seed('frag', postRecords));
});
afterAll(() => t.close());

/** The event as the schema serializer writes it from rows (the path answers took before fragments). */
async function serializedEvents(ids: string[]) {
  const db = t.testStore.store.db;
  const rows = await eventsByIds(db, community, ids);
  const lists = groupEventLists(
    await eventProfiles(db, community, ids),
    await eventTags(db, community, ids),
    await eventPublications(db, community, ids),
  );
  const byId = new Map(rows.map((row) => [row.id, toCalendarEvent(row, lists.get(row.id))]));
  return ids.map((id) => byId.get(id) ?? expect.unreachable(id));
}
async function serializedPosts(ids: string[]) {
  const db = t.testStore.store.db;
  return loadPosts(db, community, await postsByIds(db, community, ids));
}

describe('fragment answers, byte for byte', () => {
  it('answers an event by id exactly as the response schema serializes it', async () => {
    for (const id of ['evdstcross01', 'evongoing001', 'evberlin0001', 'evtokyo00001']) {
      const res = await t.get(`/admin/v0/calendar_events/${id}`, token);
      const [event] = await serializedEvents([id]);
      expect(res.body).toBe(build(EventResponse)({ success: true, data: event }));
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('answers a post by id exactly as the response schema serializes it', async () => {
    for (const id of Object.values(postIds)) {
      const res = await t.get(`/admin/v0/posts/${id}`, token);
      const [post] = await serializedPosts([id]);
      expect(res.body).toBe(build(PostResponse)({ success: true, data: post }));
    }
  });

  it('answers pages of posts and events exactly as the page schema serializes them', async () => {
    const posts = await t.get(`/admin/v0/feeds/home/posts?per_page=3&page=1&sort=oldest`, token);
    const page = posts.json().data as { records: { id: string }[]; total_records: number };
    const expectedPosts = toPage(
      { page: 1, per_page: 3 },
      page.total_records,
      await serializedPosts(page.records.map((r) => r.id)),
    );
    expect(posts.body).toBe(build(PostPageResponse)({ success: true, data: expectedPosts }));

    const events = await t.get(`/admin/v0/calendar_events?per_page=2&time_filter=past`, token);
    const eventPage = events.json().data as { records: { id: string }[]; total_records: number };
    expect(eventPage.records.length).toBe(2);
    const expectedEvents = toPage(
      { page: 0, per_page: 2 },
      eventPage.total_records,
      await serializedEvents(eventPage.records.map((r) => r.id)),
    );
    expect(events.body).toBe(build(EventPageResponse)({ success: true, data: expectedEvents }));
  });
});

describe('fragments kept in step with their records', () => {
  it('rewrites a post when it changes, and keeps its ETag when a re-import changes nothing', async () => {
    const before = await t.get(`/admin/v0/posts/${postIds.plain}`, token);
    const record = postRecords.find((r) => 'id' in r && r.id === postIds.plain) ?? expect.unreachable();
    await t.importRecords(community, [record]);
    const same = await t.get(`/admin/v0/posts/${postIds.plain}`, token);
    expect(same.body).toBe(before.body);
    expect(same.headers['etag']).toBe(before.headers['etag']);

    await t.importRecords(community, [{ ...record, title: 'A new title' }]);
    const after = await t.get(`/admin/v0/posts/${postIds.plain}`, token);
    expect(after.json().data.title).toBe('A new title');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    expect(
      (await t.get(`/admin/v0/posts/${postIds.plain}`, token, { 'if-none-match': String(before.headers['etag']) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.get(`/admin/v0/posts/${postIds.plain}`, token, { 'if-none-match': String(after.headers['etag']) }))
        .statusCode,
    ).toBe(304);
  });

  it('shows a changed profile in every answer that embeds it, and changes exactly those ETags', async () => {
    const paths = {
      hostedByAda: '/admin/v0/calendar_events/evdstcross01',
      hostedByBoth: '/admin/v0/calendar_events/evongoing001',
      writtenByAda: `/admin/v0/posts/${postIds.welcome}`,
      home: '/admin/v0/feeds/home/posts?per_page=100',
      noAda: '/admin/v0/calendar_events/evtokyo00001',
    };
    const before = Object.fromEntries(
      await Promise.all(Object.entries(paths).map(async ([k, p]) => [k, await t.get(p, token)] as const)),
    );
    expect(before.noAda?.body).not.toContain(profileIds.ada);

    await t.importRecords(community, [{ ...ada, preferred_name: 'Countess of Lovelace' }]);
    const names = (people: { profile_id: string; preferred_name: string }[]) =>
      people.filter((p) => p.profile_id === profileIds.ada).map((p) => p.preferred_name);
    const after = Object.fromEntries(
      await Promise.all(Object.entries(paths).map(async ([k, p]) => [k, await t.get(p, token)] as const)),
    );
    expect(names(after.hostedByAda?.json().data.hosts)).toEqual(['Countess of Lovelace']);
    expect(names(after.hostedByAda?.json().data.speakers)).toEqual(['Countess of Lovelace']);
    expect(names(after.hostedByBoth?.json().data.hosts)).toEqual(['Countess of Lovelace']);
    expect(after.writtenByAda?.json().data.author.preferred_name).toBe('Countess of Lovelace');
    const authors = (
      (after.home ?? expect.unreachable()).json().data.records as {
        author: { profile_id: string; preferred_name: string } | null;
      }[]
    ).flatMap((p) => (p.author ? [p.author] : []));
    expect(names(authors).length).toBeGreaterThan(0);
    expect(new Set(names(authors))).toEqual(new Set(['Countess of Lovelace']));
    for (const key of ['hostedByAda', 'hostedByBoth', 'writtenByAda', 'home'] as const) {
      expect(after[key]?.headers['etag'], key).not.toBe(before[key]?.headers['etag']);
    }
    const untouched = await t.get(paths.noAda, token);
    expect(untouched.body).toBe(before.noAda?.body);
    expect(untouched.headers['etag']).toBe(before.noAda?.headers['etag']);
    await t.importRecords(community, [ada]);
  });

  it("shows a renamed feed in every post's feed and in the posts of Home", async () => {
    const feed = baseRecords.find((r) => 'id' in r && r.id === feedIds.general) ?? expect.unreachable();
    await t.importRecords(community, [{ ...feed, label: 'Town Square' }]);
    const post = (await t.get(`/admin/v0/posts/${postIds.welcome}`, token)).json().data;
    expect(post.feed).toEqual({ id: feedIds.general, label: 'Town Square', slug: 'town-square' });
    const home = (await t.get('/admin/v0/feeds/home/posts?per_page=100', token)).json().data.records as {
      feed: { id: string; label: string };
    }[];
    expect(home.filter((p) => p.feed.id === feedIds.general).map((p) => p.feed.label)).toEqual(
      home.filter((p) => p.feed.id === feedIds.general).map(() => 'Town Square'),
    );
    await t.importRecords(community, [feed]);
  });

  it('shows a member added through the API as the host it already is, at once', async () => {
    const member = await t.app.inject({
      method: 'POST',
      url: '/admin/v0/members',
      headers: {
        authorization: `Bearer ${await t.token(community, ['members:write'])}`,
        'content-type': 'application/json',
      },
      payload: { email: 'ada@example.com', full_name: 'Augusta Ada King' },
    });
    expect(member.statusCode).toBe(200);
    const event = (await t.get('/admin/v0/calendar_events/evdstcross01', token)).json().data;
    expect(event.hosts[0].preferred_name).toBe('Augusta Ada King');
    await t.importRecords(community, [ada]);
  });
});

describe('the answer cache', () => {
  it('answers a by-id hit before validation with the same bytes and headers as the miss, and 304 the same way', async () => {
    const hits = async () =>
      Number(
        /^hearth_answer_cache_hits_total (\d+)$/m.exec(
          (await t.app.inject({ method: 'GET', url: '/metrics' })).body,
        )?.[1],
      );
    const record = postRecords.find((r) => 'id' in r && r.id === postIds.plain) ?? expect.unreachable();
    const strip = (headers: Record<string, unknown>) => {
      const {
        date: _date,
        'x-request-id': _id,
        'ratelimit-remaining': _left,
        'ratelimit-reset': _reset,
        ...rest
      } = headers;
      return rest;
    };
    for (const path of [`/admin/v0/posts/${postIds.plain}`, '/admin/v0/calendar_events/evberlin0001']) {
      // A change empties the cache: the first answer is read from the store, the second from the cache.
      await t.importRecords(community, [
        { ...record, title: `${String((record as { title: string }).title)} ${path.length}` },
      ]);
      const before = await hits();
      const miss = await t.get(path, token);
      const afterMiss = await hits();
      const hit = await t.get(path, token);
      expect([miss.statusCode, hit.statusCode, afterMiss - before, (await hits()) - afterMiss]).toEqual([
        200, 200, 0, 1,
      ]);
      expect(hit.body).toBe(miss.body);
      expect(strip(hit.headers)).toEqual(strip(miss.headers));
      const notModified = await t.get(path, token, { 'if-none-match': String(hit.headers.etag) });
      expect([notModified.statusCode, notModified.body, notModified.headers.etag]).toEqual([304, '', hit.headers.etag]);
    }
  });

  it('checks the token and its scope before answering from the cache', async () => {
    const path = `/admin/v0/posts/${postIds.plain}`;
    expect((await t.get(path, token)).statusCode).toBe(200);
    const writeOnly = await t.token(community, ['members:write']);
    const refused = await t.get(path, writeOnly);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'insufficient_scope']);
    const unknown = await t.get(path, 'hth_nope');
    expect([unknown.statusCode, unknown.json().code]).toEqual([401, 'unauthorized']);
  });

  it('keeps an upcoming list until the next event ends, then answers it anew', async () => {
    const path = '/admin/v0/calendar_events?time_filter=upcoming&per_page=100';
    const now = t.clock.now;
    try {
      const first = (await t.get(path, token)).json().data.records.map((e: { id: string }) => e.id);
      expect(first).toContain('evongoing001');
      // evongoing001 ends at 2026-03-10T14:00:00Z (fixture); a minute later it is no longer upcoming.
      t.clock.now = Date.parse('2026-03-10T14:01:00Z');
      const later = (await t.get(path, token)).json().data.records.map((e: { id: string }) => e.id);
      expect(later).not.toContain('evongoing001');
      expect(later).toEqual(first.filter((id: string) => id !== 'evongoing001'));
    } finally {
      t.clock.now = now;
    }
  });
});
