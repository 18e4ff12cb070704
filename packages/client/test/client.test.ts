// The typed client against a live Hearth server (the real app on a real socket over the test fixtures).
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { postIds, postRecords } from '../../../fixtures/posts.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import {
  createHearthClient,
  HearthError,
  paginate,
  type CommentHit,
  type components,
  type HearthClient,
  type PostHit,
} from '../src/index.js';

let t: TestApp;
let baseUrl: string;
let client: HearthClient;
let writer: HearthClient;
let editor: HearthClient;
let reader: string;
const requests: string[] = [];
/** The conditional and idempotency headers of each request `editor` sent. */
const sent: { method: string; path: string; ifMatch: string | null; idempotencyKey: string | null }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const community = await t.community('acme');
  await t.importRecords(community, postRecords);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  baseUrl = `http://127.0.0.1:${address.port}`;
  const counting = (request: Request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
    return fetch(request);
  };
  reader = await t.token(community, ['read']);
  client = createHearthClient({ baseUrl: `${baseUrl}/`, token: reader, fetch: counting });
  writer = createHearthClient({ baseUrl, token: await t.token(community, ['members:write']) });
  const recording = (request: Request) => {
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      ifMatch: request.headers.get('if-match'),
      idempotencyKey: request.headers.get('idempotency-key'),
    });
    return fetch(request);
  };
  editor = createHearthClient({ baseUrl, token: await t.token(community, ['read', 'events:write']), fetch: recording });
});
afterAll(() => t.close());

/** Why a call failed, as the HearthError it must be. */
async function failure(pending: Promise<unknown>): Promise<HearthError> {
  const error: unknown = await pending.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HearthError)) throw new Error(`expected a HearthError, got ${String(error)}`);
  return error;
}

describe('one method per operation', () => {
  it('getCalendarEvent answers the event, typed', async () => {
    const event = await client.getCalendarEvent({ calendar_event_id: 'evdstcross01' });
    // The schema's named type, both ways (openapi-fetch rebuilds it structurally).
    expectTypeOf(event).toExtend<components['schemas']['CalendarEvent']>();
    expectTypeOf<components['schemas']['CalendarEvent']>().toExtend<typeof event>();
    expectTypeOf(event.status).toEqualTypeOf<'draft' | 'needs_approval' | 'published'>();
    expect(event).toMatchObject({
      id: 'evdstcross01',
      title: 'Weekend Hack: across DST!',
      start_date: '2026-03-07T10:00:00-08:00',
      end_date: '2026-03-09T10:00:00-07:00',
      slug: 'weekend-hack-across-dst',
      location: 'Hangar 1',
      tags: [
        { id: 'tag-workshop', created_at: '2025-01-05 00:00:00.000000+00', tag_group_id: 'format', label: 'Workshop' },
      ],
    });
    expect(event.hosts.map((host) => host.preferred_name)).toEqual(['Ada Lovelace']);
  });

  it('listCalendarEvents sends the query and answers the page', async () => {
    const page = await client.listCalendarEvents({ time_filter: 'past', per_page: 2 });
    expect(page).toMatchObject({ page: 0, per_page: 2, count: 2, total_records: 3, total_pages: 2, has_next: true });
    expect(page.records.map((event) => event.id)).toEqual(['evongoing001', 'evdstcross01']);
    expect(requests.at(-1)).toBe('GET /admin/v0/calendar_events?time_filter=past&per_page=2');
  });

  it('listFeedPosts puts the feed in the path and the rest in the query', async () => {
    const page = await client.listFeedPosts({ feed_id: 'home', sort: 'oldest', per_page: 1 });
    expect(page.records.map((post) => post.id)).toEqual([postIds.prose]);
    expect(requests.at(-1)).toBe('GET /admin/v0/feeds/home/posts?sort=oldest&per_page=1');
  });

  it('getPost and searchDocuments answer posts and comments', async () => {
    const post = await client.getPost({ post_id: postIds.welcome });
    expect(post).toMatchObject({ id: postIds.welcome, title: 'Welcome to Hearth: read me first!', comments_count: 2 });
    const found = await client.searchDocuments({ q: 'hello', type: 'comment' });
    expect(found.records.map((record) => record.id)).toEqual(['comment00002']);
    const posts = await client.searchDocuments({ q: 'welcome', type: 'post', highlight: true });
    // Narrowed by `type`: a post has a title, a comment has a parent post and no title.
    expectTypeOf(posts.records).toEqualTypeOf<PostHit[]>();
    expectTypeOf(found.records).toEqualTypeOf<CommentHit[]>();
    expect(posts.records.map((record) => record.title)).toContain('Welcome to Hearth: read me first!');
    expect(found.records.map((record) => record.parent_post_id)).toEqual([postIds.welcome]);
    expect(posts.records[0]?.highlight).toContain('<mark>');
  });

  it('addMember posts the body, with an Idempotency-Key when given', async () => {
    const body = { email: 'katherine@example.com', full_name: 'Katherine Johnson' };
    const created = await writer.addMember(body, { idempotencyKey: 'client-test-1' });
    expect(created.member).toMatchObject({
      email: 'katherine@example.com',
      full_name: 'Katherine Johnson',
      chat_profile_id: null,
    });
    const replayed = await writer.raw.POST('/admin/v0/members', {
      body,
      headers: { 'idempotency-key': 'client-test-1' },
    });
    expect(replayed.response.status).toBe(201);
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.data?.data.member.id).toBe(created.member.id);
  });

  it('types its parameters', () => {
    // Checked by `tsc --noEmit`; the calls are never made.
    const calls = () => {
      // @ts-expect-error an unknown time filter
      void client.listCalendarEvents({ time_filter: 'tomorrow' });
      // @ts-expect-error the id is required
      void client.getCalendarEvent({});
      // @ts-expect-error search needs q and type
      void client.searchDocuments({ q: 'x' });
      // @ts-expect-error a member needs a full name
      void writer.addMember({ email: 'a@example.com' });
      // @ts-expect-error comments have no title
      void client.searchDocuments({ q: 'x', type: 'comment' }).then((page) => page.records[0]?.title);
      // @ts-expect-error If-Match is for changes and deletes
      void client.getPost({ post_id: 'x' }, { ifMatch: '"v1"' });
      // @ts-expect-error a change takes no Idempotency-Key
      void editor.updateCalendarEvent({ calendar_event_id: 'x', location: null }, { idempotencyKey: 'k' });
      // @ts-expect-error an ETag is a string
      void editor.deleteCalendarEvent({ calendar_event_id: 'x' }, { ifMatch: 1 });
    };
    expect(typeof calls).toBe('function');
  });
});

describe('errors', () => {
  it('raises the error body of a 404 as a HearthError', async () => {
    const error = await failure(client.getCalendarEvent({ calendar_event_id: 'evnotthere01' }));
    expect(error).toMatchObject({ name: 'HearthError', status: 404, code: 'not_found', details: [] });
    expect(error.requestId).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
    expect(error.message).toBe("Calendar event 'evnotthere01' was not found.");
  });

  it('carries the details of a validation error', async () => {
    const error = await failure(client.listCalendarEvents({ per_page: 500 }));
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ field: 'per_page', message: 'must be <= 100' }],
    });
  });

  it('raises 401 and 403 with their codes', async () => {
    const stranger = createHearthClient({ baseUrl, token: 'not-a-token' });
    expect(await failure(stranger.getPost({ post_id: postIds.welcome }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(await failure(writer.getPost({ post_id: postIds.welcome }))).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
  });
});

describe('every page', () => {
  it('client.pages walks a list page by page, one request each, until has_next is false', async () => {
    const all = await client.listCalendarEvents({ per_page: 100 });
    requests.length = 0;
    const seen: string[] = [];
    let pages = 0;
    for await (const page of client.pages.listCalendarEvents({ per_page: 2 })) {
      pages += 1;
      seen.push(...page.records.map((event) => event.id));
    }
    expect(seen).toEqual(all.records.map((event) => event.id));
    expect(pages).toBe(Math.ceil(all.total_records / 2));
    expect(requests).toEqual(
      Array.from({ length: pages }, (_, i) => `GET /admin/v0/calendar_events?per_page=2&page=${i}`),
    );
  });

  it('pages.searchDocuments walks a search, its records narrowed to posts', async () => {
    const titles: string[] = [];
    for await (const page of client.pages.searchDocuments({ q: 'meetup', type: 'post', per_page: 1 })) {
      expectTypeOf(page.records).toEqualTypeOf<PostHit[]>();
      for (const record of page.records) if (record.title) titles.push(record.title);
    }
    const once = await client.searchDocuments({ q: 'meetup', type: 'post', per_page: 100 });
    expect(titles.length).toBe(once.total_records);
    expect(titles.length).toBeGreaterThan(1);
  });

  it('paginate walks any list method from the page asked for', async () => {
    const ids: string[] = [];
    for await (const page of paginate((params) => client.searchDocuments(params), {
      q: 'hello',
      type: 'comment',
      per_page: 1,
      page: 0,
    })) {
      expectTypeOf(page.records).toEqualTypeOf<CommentHit[]>();
      ids.push(...page.records.map((record) => record.parent_post_id));
    }
    expect(ids.length).toBe((await client.searchDocuments({ q: 'hello', type: 'comment' })).total_records);
  });

  it('stops at once on an empty list', async () => {
    const pages = [];
    for await (const page of client.pages.listFeedPosts({ feed_id: 'home', page: 50 })) pages.push(page.count);
    expect(pages).toEqual([0]);
  });
});

describe('ETags and If-Match', () => {
  /** The ETag a GET of the event answers now, read without the client. */
  const currentEtag = async (id: string) => (await t.get(`/admin/v0/calendar_events/${id}`, reader)).headers.etag;
  const newEvent = async (title: string, options: { idempotencyKey?: string } = {}) => {
    const [host] = (await client.getCalendarEvent({ calendar_event_id: 'evdstcross01' })).hosts;
    if (!host) throw new Error('the fixture event has a host');
    return editor.createCalendarEvent(
      {
        title,
        start_date: '2031-05-06T17:00:00+02:00',
        end_date: '2031-05-06T18:00:00+02:00',
        hosts: [host.profile_id],
        description: { text: 'Questions about the client.' },
        location: 'Room 1',
      },
      options,
    );
  };

  it('etagOf gives the ETag of the answer a record came from; ifMatch makes a change or a delete conditional', async () => {
    sent.length = 0;
    const created = await newEvent('Client office hours', { idempotencyKey: 'client-etag-1' });
    const id = created.id;
    const first = await currentEtag(id);
    expect(first).toMatch(/^"[^"]+"$/);
    expect(editor.etagOf(created)).toBe(first);
    const read = await editor.getCalendarEvent({ calendar_event_id: id });
    expect(editor.etagOf(read)).toBe(first);

    const moved = await editor.updateCalendarEvent(
      { calendar_event_id: id, location: 'Room 2' },
      { ifMatch: editor.etagOf(read) },
    );
    expect(moved).toMatchObject({ id, location: 'Room 2' });
    const second = await currentEtag(id);
    expect(second).not.toBe(first);
    expect(editor.etagOf(moved)).toBe(second);

    // A change or a delete made from the first read is refused, and nothing changes.
    const stale = await failure(
      editor.updateCalendarEvent({ calendar_event_id: id, location: 'Room 3' }, { ifMatch: editor.etagOf(read) }),
    );
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed', details: [] });
    expect(
      await failure(editor.deleteCalendarEvent({ calendar_event_id: id }, { ifMatch: first ?? '' })),
    ).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect((await client.getCalendarEvent({ calendar_event_id: id })).location).toBe('Room 2');
    expect(await currentEtag(id)).toBe(second);

    expect(await editor.deleteCalendarEvent({ calendar_event_id: id }, { ifMatch: editor.etagOf(moved) })).toEqual({
      id,
    });
    expect((await t.get(`/admin/v0/calendar_events/${id}`, reader)).statusCode).toBe(404);
    expect(sent).toEqual([
      { method: 'POST', path: '/admin/v0/calendar_events', ifMatch: null, idempotencyKey: 'client-etag-1' },
      { method: 'GET', path: `/admin/v0/calendar_events/${id}`, ifMatch: null, idempotencyKey: null },
      { method: 'PATCH', path: `/admin/v0/calendar_events/${id}`, ifMatch: first, idempotencyKey: null },
      { method: 'PATCH', path: `/admin/v0/calendar_events/${id}`, ifMatch: first, idempotencyKey: null },
      { method: 'DELETE', path: `/admin/v0/calendar_events/${id}`, ifMatch: first, idempotencyKey: null },
      { method: 'DELETE', path: `/admin/v0/calendar_events/${id}`, ifMatch: second, idempotencyKey: null },
    ]);
  });

  it('registers a person, lists and walks the registrations, and unregisters them, typed', async () => {
    const event = await newEvent('Client registrations');
    await editor.updateCalendarEvent({ calendar_event_id: event.id, enable_registration_button: true });
    const { registration } = await editor.registerForCalendarEvent(
      { calendar_event_id: event.id, email: 'mary@example.com', full_name: 'Mary Jackson' },
      { idempotencyKey: 'client-register-1' },
    );
    expectTypeOf(registration.member.email).toEqualTypeOf<string | null>();
    expect(registration).toMatchObject({
      event_id: event.id,
      member: { email: 'mary@example.com', full_name: 'Mary Jackson', chat_profile_id: null, is_deactivated: false },
    });
    const again = await editor.registerForCalendarEvent({
      calendar_event_id: event.id,
      email: 'MARY@example.com',
      full_name: 'Mary Jackson',
    });
    expect(again.registration).toEqual(registration);
    const listed = await editor.listCalendarEventRegistrations({ calendar_event_id: event.id, per_page: 50 });
    expect([listed.total_records, listed.records]).toEqual([1, [registration]]);
    const pages = [];
    for await (const page of editor.pages.listCalendarEventRegistrations({ calendar_event_id: event.id }))
      pages.push(page.records.map((r) => r.member.id));
    expect(pages).toEqual([[registration.member.id]]);
    // A read-only token may not see who registered.
    expect(await failure(client.listCalendarEventRegistrations({ calendar_event_id: event.id }))).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    const removed = await editor.unregisterFromCalendarEvent({
      calendar_event_id: event.id,
      member_id: registration.member.id,
    });
    expect(removed.registration).toEqual(registration);
    expect((await editor.listCalendarEventRegistrations({ calendar_event_id: event.id })).total_records).toBe(0);
    await editor.deleteCalendarEvent({ calendar_event_id: event.id });
  });

  it('etagOf gives a page its ETag and refuses a value no answer of this client came with', async () => {
    const page = await client.listFeedPosts({ feed_id: 'home', per_page: 2 });
    const raw = await t.get('/admin/v0/feeds/home/posts?per_page=2', reader);
    expect(client.etagOf(page)).toBe(raw.headers.etag);
    const post = await client.getPost({ post_id: postIds.welcome });
    const refused =
      'No ETag is known for this value: pass a record or page as a method of this client resolved to it (a GET, a create or an update)';
    expect(() => client.etagOf({ ...post })).toThrow(new TypeError(refused));
    expect(() => writer.etagOf(post)).toThrow(new TypeError(refused));
    expect(() => client.etagOf(page.records)).toThrow(new TypeError(refused));
  });
});
