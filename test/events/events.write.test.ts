// Writing calendar events: create, change (If-Match), delete; every rule's 400, scopes, tenancy, idempotency, audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds, profileIds } from '../../fixtures/community.js';

let t: TestApp;
let acme: string;
let other: string;
let writer: string;
let reader: string;
let otherWriter: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  other = await t.community('other');
  await t.importRecords(acme, baseRecords);
  await t.importRecords(other, baseRecords);
  writer = await t.token(acme, ['read', 'events:write']);
  reader = await t.token(acme, ['read']);
  otherWriter = await t.token(other, ['read', 'events:write']);
});
afterAll(() => t.close());

const path = '/admin/v0/calendar_events';
const send = (
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const emptyRefs = { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] };
const minimal = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  hosts: ['ada@example.com'],
  description: { text: 'Talks and pizza' },
};

describe('POST /calendar_events', () => {
  it('creates an event with defaults and answers it as GET does, with Location and ETag', async () => {
    const res = await send('POST', path, writer, minimal);
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created.id).toMatch(/^[a-z0-9]{12}$/);
    expect(res.headers['location']).toBe(`/admin/v0/calendar_events/${created.id}`);
    const got = await t.get(`${path}/${created.id}`, reader);
    expect(res.body).toBe(got.body);
    expect(res.headers['etag']).toBe(got.headers['etag']);
    const { hosts, ...rest } = created;
    expect(hosts.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.ada]);
    expect(rest).toEqual({
      id: created.id,
      created_at: '2026-03-10 12:00:00.000000+00',
      updated_at: '2026-03-10 12:00:00.000000+00',
      allow_public_guest_list: false,
      description_chat_blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Talks and pizza' }] }],
        },
      ],
      description_chat_blocks_references: emptyRefs,
      enable_registration_button: false,
      // Without a time zone, the instants written answer in UTC.
      end_date: '2026-04-02T03:00:00+00:00',
      external_speakers: null,
      is_unlisted: false,
      link: null,
      location: null,
      partner_event_id: null,
      publish_to_site: false,
      triggers_webhooks: false,
      recap_chat_blocks: null,
      recap_chat_blocks_references: emptyRefs,
      recording_link: null,
      webhook_custom_metadata: null,
      show_end_date: true,
      slug: 'spring-meetup',
      start_date: '2026-04-02T01:00:00+00:00',
      status: 'published',
      title: 'Spring meetup',
      use_registration_btn_as_link: false,
      attendees_count: 0,
      cover_image_url: null,
      published_to: [],
      speakers: [],
      tags: [],
    });
  });

  it('takes every optional field, renders dates in the time zone, and lists the event in its feed', async () => {
    const res = await send('POST', path, writer, {
      ...minimal,
      title: 'Berlin night',
      slug: 'berlin-night-2026',
      status: 'needs_approval',
      timezone: 'Europe/Berlin',
      start_date: '2026-04-02T17:00:00Z',
      end_date: '2026-04-02T19:00:00Z',
      hosts: [profileIds.grace, 'ADA@example.com'],
      speakers: [profileIds.ada],
      tags: ['tag-online', 'tag-workshop'],
      published_to: [feedIds.events],
      recap: { blocks: [{ type: 'rich_text', elements: [] }] },
      description: {
        blocks: [
          {
            type: 'rich_text',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://example.com/a' }] }],
          },
        ],
        text: 'ignored',
      },
      is_unlisted: true,
      publish_to_site: true,
      triggers_webhooks: true,
      link: 'https://example.com/berlin',
      location: 'Kreuzberg',
      webhook_custom_metadata: '{"crm":"42"}',
    });
    expect(res.statusCode).toBe(201);
    const event = res.json().data;
    expect([event.start_date, event.end_date, event.status, event.slug]).toEqual([
      '2026-04-02T19:00:00+02:00',
      '2026-04-02T21:00:00+02:00',
      'needs_approval',
      'berlin-night-2026',
    ]);
    expect(event.hosts.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.grace, profileIds.ada]);
    expect(event.speakers.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.ada]);
    expect(event.tags.map((tag: { id: string }) => tag.id)).toEqual(['tag-online', 'tag-workshop']);
    expect(event.published_to).toEqual([
      { chat_channel_id: 'C0EVENTS01', chat_message_permalink: null, feed_id: feedIds.events },
    ]);
    expect(event.description_chat_blocks_references.urls).toEqual([
      { order_seen: 0, is_embedded_media: false, is_image: false, is_video: false, url: 'https://example.com/a' },
    ]);
    expect([
      event.is_unlisted,
      event.publish_to_site,
      event.triggers_webhooks,
      event.link,
      event.location,
      event.webhook_custom_metadata,
    ]).toEqual([true, true, true, 'https://example.com/berlin', 'Kreuzberg', '{"crm":"42"}']);
    const listed = await t.get(`${path}?status=needs_approval&feed_id=${feedIds.events}`, reader);
    expect(listed.json().data.records.map((r: { id: string }) => r.id)).toEqual([event.id]);
  });

  const refused = async (body: unknown, details: { field: string; message: string }[]) => {
    const res = await send('POST', path, writer, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: `Invalid body field '${details[0]?.field}': ${details[0]?.message}.`,
      code: 'invalid_body',
      request_id: res.headers['x-request-id'],
      details,
    });
  };

  it('refuses each broken rule with its own detail', async () => {
    await refused({ ...minimal, title: 'ab' }, [{ field: 'title', message: 'must NOT have fewer than 3 characters' }]);
    await refused({ ...minimal, title: 'x'.repeat(71) }, [
      { field: 'title', message: 'must NOT have more than 70 characters' },
    ]);
    await refused({ ...minimal, title: 12345 }, [{ field: 'title', message: 'must be string' }]);
    const { hosts: _hosts, ...noHosts } = minimal;
    await refused(noHosts, [{ field: 'hosts', message: "must have required property 'hosts'" }]);
    await refused({ ...minimal, hosts: [] }, [{ field: 'hosts', message: 'must NOT have fewer than 1 items' }]);
    await refused({ ...minimal, hosts: ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io', 'f@x.io'] }, [
      { field: 'hosts', message: 'must NOT have more than 5 items' },
    ]);
    await refused({ ...minimal, hosts: ['nobody@example.com', profileIds.ada, 'ada@example.com'] }, [
      { field: 'hosts.0', message: "no profile or member 'nobody@example.com' in this community" },
      { field: 'hosts.2', message: 'names a profile already listed' },
    ]);
    await refused({ ...minimal, start_date: '2026-04-01T18:00:00' }, [
      { field: 'start_date', message: 'must be an ISO 8601 date-time with a numeric offset or Z' },
    ]);
    await refused({ ...minimal, start_date: '2026-04-01' }, [
      { field: 'start_date', message: 'must be an ISO 8601 date-time with a numeric offset or Z' },
    ]);
    await refused({ ...minimal, end_date: '2026-04-01T18:00:00-07:00' }, [
      { field: 'end_date', message: 'must be after start_date' },
    ]);
    await refused({ ...minimal, timezone: 'Mars/Olympus' }, [
      { field: 'timezone', message: 'must be an IANA time zone' },
    ]);
    await refused({ ...minimal, description: {} }, [{ field: 'description', message: 'must have blocks or text' }]);
    await refused({ ...minimal, status: 'draft' }, [
      { field: 'status', message: 'must be one of: needs_approval, published' },
    ]);
    await refused({ ...minimal, tags: ['tag-online', 'tag-nope'] }, [
      { field: 'tags.1', message: "no tag 'tag-nope' in this community" },
    ]);
    await refused({ ...minimal, published_to: [feedIds.archived] }, [
      { field: 'published_to.0', message: `no feed '${feedIds.archived}' (not archived) in this community` },
    ]);
    await refused({ ...minimal, link: 'ftp://example.com/x' }, [
      { field: 'link', message: 'must be an http or https URL with a host' },
    ]);
    await refused({ ...minimal, speakers: [profileIds.ada, profileIds.grace, 'a', 'b', 'c', 'd'] }, [
      { field: 'speakers', message: 'must NOT have more than 5 items' },
    ]);
    await refused({ ...minimal, is_unlisted: 'yes' }, [{ field: 'is_unlisted', message: 'must be boolean' }]);
    // Bodies are judged as sent: text is not a boolean, a one-item list is not a string.
    await refused({ ...minimal, is_unlisted: 'true' }, [{ field: 'is_unlisted', message: 'must be boolean' }]);
    await refused({ ...minimal, title: ['Spring meetup'] }, [{ field: 'title', message: 'must be string' }]);
    await refused({ ...minimal, hosts: [profileIds.ada, 5] }, [{ field: 'hosts.1', message: 'must be string' }]);
    await refused({ ...minimal, timezone: 7 }, [{ field: 'timezone', message: 'must be string or null' }]);
    await refused({ ...minimal, recap: 'none' }, [{ field: 'recap', message: 'must be object or null' }]);
    await refused({ ...minimal, slug: 'Not A Slug' }, [
      { field: 'slug', message: 'must match pattern "^[a-z0-9-]+$"' },
    ]);
  });

  it('replays an Idempotency-Key retry and makes one event', async () => {
    const headers = { 'idempotency-key': 'create-1' };
    const body = { ...minimal, title: 'Idempotent one' };
    const first = await send('POST', path, writer, body, headers);
    const retry = await send('POST', path, writer, body, headers);
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(retry.headers['location']).toBe(first.headers['location']);
    const rows = await t.testStore.store.db
      .selectFrom('calendar_events')
      .select('id')
      .where('community_id', '=', acme)
      .where('title', '=', 'Idempotent one')
      .execute();
    expect(rows).toEqual([{ id: first.json().data.id }]);
    const reused = await send('POST', path, writer, { ...body, title: 'Another' }, headers);
    expect([reused.statusCode, reused.json().code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('needs the events:write scope', async () => {
    const res = await send('POST', path, reader, minimal);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("This operation needs the 'events:write' scope; the token has: read.");
    expect((await send('DELETE', `${path}/evdstcross01`, reader)).statusCode).toBe(403);
    expect((await send('PATCH', `${path}/evdstcross01`, reader, { title: 'Nope' })).statusCode).toBe(403);
  });
});

describe('PATCH /calendar_events/:id', () => {
  it('changes only the fields given, and GET answers the new state at once', async () => {
    const before = await t.get(`${path}/evdstcross01`, reader);
    const res = await send(
      'PATCH',
      `${path}/evdstcross01`,
      writer,
      { title: 'Weekend Hack, renamed', location: null, hosts: [profileIds.grace] },
      { 'if-match': before.headers['etag'] as string },
    );
    expect(res.statusCode).toBe(200);
    const after = await t.get(`${path}/evdstcross01`, reader);
    expect(after.body).toBe(res.body);
    expect(after.headers['etag']).toBe(res.headers['etag']);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const was = before.json().data;
    const now = after.json().data;
    expect(now).toEqual({
      ...was,
      title: 'Weekend Hack, renamed',
      location: null,
      hosts: [expect.objectContaining({ profile_id: profileIds.grace })],
      updated_at: '2026-03-10 12:00:00.000000+00',
    });
  });

  it('answers 412 to a stale If-Match and changes nothing', async () => {
    const stale = (await t.get(`${path}/evberlin0001`, reader)).headers['etag'] as string;
    expect(
      (await send('PATCH', `${path}/evberlin0001`, writer, { location: 'First' }, { 'if-match': stale })).statusCode,
    ).toBe(200);
    const current = await t.get(`${path}/evberlin0001`, reader);
    const res = await send('PATCH', `${path}/evberlin0001`, writer, { location: 'Second' }, { 'if-match': stale });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({
      success: false,
      error: 'The record changed since the ETag in If-Match was read; read it again and retry.',
      code: 'precondition_failed',
      request_id: res.headers['x-request-id'],
    });
    const unchanged = await t.get(`${path}/evberlin0001`, reader);
    expect(unchanged.body).toBe(current.body);
    expect(unchanged.json().data.location).toBe('First');
  });

  it('checks rules against the stored values and refuses an empty change', async () => {
    const res = await send('PATCH', `${path}/evberlin0001`, writer, { end_date: '2026-03-20T18:00:00+01:00' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'end_date', message: 'must be after start_date' }]);
    const empty = await send('PATCH', `${path}/evberlin0001`, writer, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([{ field: '(root)', message: 'must NOT have fewer than 1 properties' }]);
    const nulled = await send('PATCH', `${path}/evberlin0001`, writer, { title: null });
    expect(nulled.json().details).toEqual([{ field: 'title', message: 'must be string' }]);
  });

  it('refuses unknown fields, nested ones too, naming each, and changes nothing (issue 35, item 9)', async () => {
    const before = await t.get(`${path}/evberlin0001`, reader);
    const at = t.clock.now;
    t.clock.now += 60_000;
    try {
      const misspelt = await send('PATCH', `${path}/evberlin0001`, writer, { titel: 'Renamed' });
      expect(misspelt.statusCode).toBe(400);
      expect(misspelt.json()).toEqual({
        success: false,
        error: "Invalid body field 'titel': is not a known field.",
        code: 'invalid_body',
        request_id: misspelt.headers['x-request-id'],
        details: [{ field: 'titel', message: 'is not a known field' }],
      });
      const mixed = await send('PATCH', `${path}/evberlin0001`, writer, {
        location: 'Room 2',
        description: { text: 'New', txt: 'typo' },
        colour: 'red',
      });
      expect([mixed.statusCode, mixed.json().details]).toEqual([
        400,
        [
          { field: 'colour', message: 'is not a known field' },
          { field: 'description.txt', message: 'is not a known field' },
        ],
      ]);
      const after = await t.get(`${path}/evberlin0001`, reader);
      expect(after.body).toBe(before.body);
      expect(after.headers['etag']).toBe(before.headers['etag']);
      const create = await send('POST', path, writer, { ...minimal, title: 'Never made', hots: ['ada@example.com'] });
      expect([create.statusCode, create.json().details]).toEqual([
        400,
        [{ field: 'hots', message: 'is not a known field' }],
      ]);
      const made = await t.testStore.store.db
        .selectFrom('calendar_events')
        .select('id')
        .where('title', '=', 'Never made')
        .execute();
      expect(made).toEqual([]);
    } finally {
      t.clock.now = at;
    }
  });

  it("answers 404 for an unknown id and for another community's event", async () => {
    const unknown = await send('PATCH', `${path}/zzzzzzzzzzzz`, writer, { title: 'Nope' });
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, "Calendar event 'zzzzzzzzzzzz' was not found."]);
    const created = (
      await send('POST', path, otherWriter, { ...minimal, title: 'Other only', hosts: [profileIds.ada] })
    ).json().data;
    expect((await send('PATCH', `${path}/${created.id}`, writer, { title: 'Hijack' })).statusCode).toBe(404);
    expect((await send('DELETE', `${path}/${created.id}`, writer)).statusCode).toBe(404);
    // The same id in another community is untouched by acme's change of its own copy.
    await send('PATCH', `${path}/evongoing001`, writer, { location: 'Acme only' });
    const otherReader = await t.token(other, ['read']);
    expect((await t.get(`${path}/evongoing001`, otherReader)).json().data.location).not.toBe('Acme only');
    expect((await t.get(`${path}/${created.id}`, otherReader)).json().data.title).toBe('Other only');
  });
});

describe('DELETE /calendar_events/:id', () => {
  it('deletes: GET is 404, lists and feeds drop it, deleting again is 404', async () => {
    const feedList = async () =>
      (await t.get(`${path}?feed_id=${feedIds.events}`, reader)).json().data.records.map((r: { id: string }) => r.id);
    const allList = async () =>
      (await t.get(`${path}?per_page=100`, reader)).json().data.records.map((r: { id: string }) => r.id);
    expect(await feedList()).toContain('evdstcross01');
    expect(await allList()).toContain('evdstcross01');
    const res = await send('DELETE', `${path}/evdstcross01`, writer);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"success":true,"data":{"id":"evdstcross01"}}');
    expect((await t.get(`${path}/evdstcross01`, reader)).statusCode).toBe(404);
    expect(await feedList()).not.toContain('evdstcross01');
    expect(await allList()).not.toContain('evdstcross01');
    const again = await send('DELETE', `${path}/evdstcross01`, writer);
    expect(again.statusCode).toBe(404);
  });

  it('takes an empty application/json body as no body; a create or change still needs one (issue 35, item 14)', async () => {
    const notJson = (res: { headers: Record<string, unknown> }) => ({
      success: false,
      error: 'The request body is not valid JSON.',
      code: 'invalid_body',
      request_id: res.headers['x-request-id'],
    });
    for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
      const { id } = (await send('POST', path, writer, { ...minimal, title: 'Deleted by a client' })).json().data;
      const res = await t.app.inject({
        method: 'DELETE',
        url: `${path}/${id}`,
        payload: '',
        headers: { authorization: `Bearer ${writer}`, 'content-type': contentType },
      });
      expect([contentType, res.statusCode]).toEqual([contentType, 200]);
      expect(res.body).toBe(`{"success":true,"data":{"id":"${id}"}}`);
      expect((await t.get(`${path}/${id}`, reader)).statusCode).toBe(404);
    }
    for (const [method, url] of [
      ['POST', path],
      ['PATCH', `${path}/evberlin0002`],
    ] as const) {
      const res = await send(method, url, writer, undefined, { 'content-type': 'application/json' });
      expect([method, res.statusCode, res.json()]).toEqual([method, 400, notJson(res)]);
    }
    const malformed = await t.app.inject({
      method: 'DELETE',
      url: `${path}/evberlin0002`,
      payload: '{nope',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, notJson(malformed)]);
    expect((await t.get(`${path}/evberlin0002`, reader)).statusCode).toBe(200);
  });

  it('honours If-Match', async () => {
    const res = await send('DELETE', `${path}/evberlin0002`, writer, undefined, { 'if-match': '"e0"' });
    expect(res.statusCode).toBe(412);
    expect((await t.get(`${path}/evberlin0002`, reader)).statusCode).toBe(200);
  });
});

describe('audit', () => {
  it('records every write with its action, subject and title', async () => {
    const rows = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'subject_id'])
      .where('community_id', '=', acme)
      .where('subject_id', 'in', ['evdstcross01'])
      .orderBy('action')
      .execute();
    expect(rows).toEqual([
      { action: 'calendar_event.deleted', subject_id: 'evdstcross01' },
      { action: 'calendar_event.updated', subject_id: 'evdstcross01' },
    ]);
  });
});

describe('deactivated members', () => {
  it('answers is_deactivated on the profile in every event that embeds it, at once, and nowhere else', async () => {
    const admin = await t.token(acme, ['read', 'members:write']);
    const before = await t.get(`${path}/evongoing001`, reader);
    const hostOf = (body: { data: { hosts: { profile_id: string; is_deactivated: boolean }[] } }) =>
      body.data.hosts.map((h) => [h.profile_id, h.is_deactivated]);
    expect(hostOf(before.json())).toEqual([
      [profileIds.grace, false],
      [profileIds.ada, false],
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v0/members/${profileIds.grace}/deactivate`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.member).toEqual({
      id: profileIds.grace,
      email: 'grace@example.com',
      full_name: 'Grace Hopper',
      preferred_name: 'Grace Hopper',
      avatar_url_original: null,
      chat_profile_id: 'U0GRACE001',
      is_deactivated: true,
    });
    const after = await t.get(`${path}/evongoing001`, reader);
    expect(hostOf(after.json())).toEqual([
      [profileIds.grace, true],
      [profileIds.ada, false],
    ]);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const otherReader = await t.token(other, ['read']);
    expect(hostOf((await t.get(`${path}/evongoing001`, otherReader)).json())).toEqual([
      [profileIds.grace, false],
      [profileIds.ada, false],
    ]);
    const audit = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'subject_id'])
      .where('community_id', '=', acme)
      .where('action', '=', 'member.deactivated')
      .execute();
    expect(audit).toEqual([{ action: 'member.deactivated', subject_id: profileIds.grace }]);
  });
});
