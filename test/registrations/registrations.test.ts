// Registrations for calendar events on the real app: every rule with its exact body, the count that follows
// them, idempotency, 50 parallel registrations of one e-mail, tenancy, hosted names, and the hosted product's
// webhook payload verified with the standardwebhooks package by a real receiver.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDispatcher, type Dispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { createWebhooksService, newSecret } from '../../src/webhooks/webhooks.service.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let acme: string;
let other: string;
let token: string;
let readToken: string;
let hostedToken: string;
let otherToken: string;
let receiver: Receiver;
let dispatcher: Dispatcher;
const secret = newSecret();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WIRE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00$/;

/** An event of the file, open for registration unless `fields` say otherwise; the far future keeps it open. */
const eventRecord = (id: string, fields: Record<string, unknown> = {}) => ({
  kind: 'calendar_event',
  id,
  title: `Event ${id}`,
  slug: `event-${id}`,
  start_date: '2030-05-01T18:00:00Z',
  end_date: '2030-05-01T20:00:00Z',
  hosts: [profileIds.ada],
  status: 'published',
  enable_registration_button: true,
  triggers_webhooks: true,
  webhook_custom_metadata: 'crm-42',
  attendees_count: 7,
  ...fields,
});

const events = [
  eventRecord('regopen00001'),
  eventRecord('regopen00002', { triggers_webhooks: false }),
  eventRecord('regdraft0001', { status: 'draft' }),
  eventRecord('regapprove01', { status: 'needs_approval' }),
  eventRecord('regbutton001', { enable_registration_button: false }),
  eventRecord('regended0001', { start_date: '2020-05-01T18:00:00Z', end_date: '2020-05-01T20:00:00Z' }),
  eventRecord('regnoend0001', { start_date: '2020-05-01T18:00:00Z', end_date: null }),
  eventRecord('regmeta00001', { webhook_custom_metadata: null }),
  eventRecord('regrace00001'),
  eventRecord('regpages0001'),
  eventRecord('regidem00001'),
];

const path = (eventId: string, rest = '') => `/admin/v0/calendar_events/${eventId}/registrations${rest}`;

function register(eventId: string, body: unknown, auth = token, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: path(eventId),
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}
const unregister = (eventId: string, memberId: string, auth = token) =>
  t.app.inject({ method: 'DELETE', url: path(eventId, `/${memberId}`), headers: { authorization: `Bearer ${auth}` } });
const attendees = async (eventId: string) =>
  (await t.get(`/admin/v0/calendar_events/${eventId}`, token)).json().data.attendees_count as number;
const count = async (table: 'event_registrations' | 'profiles', email?: string) => {
  let query = t.testStore.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('community_id', '=', acme);
  if (email && table === 'profiles') query = query.where('email_key', '=', email);
  return Number((await query.executeTakeFirstOrThrow()).n);
};
const messagesOf = async (type: string) =>
  (
    await t.testStore.store.db
      .selectFrom('webhook_messages')
      .select('payload')
      .where('community_id', '=', acme)
      .where('event_type', '=', type)
      .execute()
  ).map((row) => JSON.parse(row.payload) as Record<string, unknown>);

/** The first delivery whose body passes `test` (earlier tests' messages may still arrive). */
async function delivered(test: (body: Record<string, unknown>) => boolean) {
  for (let tries = 0; tries < 500; tries++) {
    const found = receiver.received.find((r) => test(JSON.parse(r.body) as Record<string, unknown>));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no such webhook arrived');
}
/** The one error body, exactly, with the request id of the answer it came in. */
const errorBody = (
  response: { headers: Record<string, unknown> },
  code: string,
  error: string,
  details?: { field: string; message: string }[],
) => ({ success: false, error, code, ...(details ? { details } : {}), request_id: response.headers['x-request-id'] });
const aboutUser = (email: string, action: string) => (body: Record<string, unknown>) =>
  body['action'] === action && (body['user'] as { email: string }).email === email;

beforeAll(async () => {
  t = await createTestApp({ now: Date.now() });
  acme = await t.community('acme');
  other = await t.community('other');
  await t.importRecords(acme, [...baseRecords, ...events]);
  await t.importRecords(other, [...baseRecords, ...events]);
  token = await t.token(acme, ['read', 'events:write']);
  readToken = await t.token(acme, ['read']);
  hostedToken = await t.token(acme, ['read', 'events:write'], { fieldNames: 'hosted' });
  otherToken = await t.token(other, ['read', 'events:write']);
  receiver = await startReceiver(secret);
  const hooks = createWebhooksService(t.testStore.store.db);
  await hooks.add(acme, receiver.url, {
    secret,
    events: 'calendar_event.user_registered,calendar_event.user_unregistered',
    allowPrivate: true,
  });
  dispatcher = startDispatcher({
    store: t.testStore.store,
    config: {
      webhookAllowPrivate: true,
      webhookTimeoutMs: 2000,
      webhookRetryBaseMs: 40,
      webhookPollMs: 50,
      webhookConcurrency: 8,
      webhookRetentionDays: 7,
    },
    log: t.app.log,
    onMessages: (wake) => t.app.writes.committed.subscribe((commit) => commit.messages > 0 && wake()),
  });
});
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await t.close();
});
beforeEach(() => {
  t.clock.now = Date.now();
  receiver.received.length = 0;
});

describe('registering', () => {
  it('makes a member, registers them once, and the count follows registrations from then on', async () => {
    const before = await t.get('/admin/v0/calendar_events/regopen00001', token);
    expect(before.json().data.attendees_count).toBe(7);
    const first = await register('regopen00001', { email: ' Lin@Example.com ', full_name: 'Lin  Okafor Ade' });
    expect(first.statusCode).toBe(201);
    const body = first.json();
    const memberId = body.data.registration.member.id as string;
    expect(memberId).toMatch(UUID);
    expect(body.data.registration.registered_at).toMatch(WIRE);
    expect(body).toEqual({
      success: true,
      message: 'Registered for the event.',
      data: {
        registration: {
          event_id: 'regopen00001',
          registered_at: body.data.registration.registered_at,
          member: {
            id: memberId,
            email: 'Lin@Example.com',
            full_name: 'Lin Okafor Ade',
            preferred_name: 'Lin Okafor Ade',
            avatar_url_original: null,
            chat_profile_id: null,
            is_deactivated: false,
          },
        },
      },
    });
    const after = await t.get('/admin/v0/calendar_events/regopen00001', token);
    expect(after.json().data.attendees_count).toBe(1);
    expect(after.headers.etag).not.toBe(before.headers.etag);

    // Again, the e-mail in another case: the same member, the first registration, nothing written.
    const again = await register('regopen00001', { email: 'lin@example.com', full_name: 'Lin Okafor Ade' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...body, message: 'Already registered for the event.' });
    expect(await attendees('regopen00001')).toBe(1);
    expect((await t.get('/admin/v0/calendar_events/regopen00001', token)).headers.etag).toBe(after.headers.etag);

    // An existing member (imported) registers a moment later: their id, their name updated as adding a member does.
    t.clock.now += 1000;
    const ada = await register('regopen00001', { email: 'ADA@example.com', full_name: 'Ada King' });
    expect(ada.statusCode).toBe(201);
    expect(ada.json().data.registration.member).toMatchObject({ id: profileIds.ada, full_name: 'Ada King' });
    expect(await attendees('regopen00001')).toBe(2);

    const listed = await t.get(`${path('regopen00001')}?per_page=1&page=1`, token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      success: true,
      data: {
        page: 1,
        per_page: 1,
        count: 1,
        total_records: 2,
        total_pages: 2,
        has_next: false,
        records: [ada.json().data.registration],
      },
    });
    const all = (await t.get(path('regopen00001'), token)).json().data.records;
    expect(all).toEqual([body.data.registration, ada.json().data.registration]);

    const removed = await unregister('regopen00001', memberId);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({
      success: true,
      message: 'Unregistered from the event.',
      data: { registration: body.data.registration },
    });
    await unregister('regopen00001', profileIds.ada);
    // Counted from registrations now: 0, not the imported 7.
    expect(await attendees('regopen00001')).toBe(0);
    const gone = await unregister('regopen00001', memberId);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({
      success: false,
      code: 'not_found',
      error: `A registration of member '${memberId}' for calendar event 'regopen00001' was not found.`,
    });
  });

  it('keeps the registrations count when an import brings the event again; the file counts the others', async () => {
    await register('regpages0001', { email: 'p1@example.com', full_name: 'Pat One' });
    await t.importRecords(acme, [
      eventRecord('regpages0001', { attendees_count: 99 }),
      eventRecord('regmeta00001', { webhook_custom_metadata: null, attendees_count: 12 }),
    ]);
    expect(await attendees('regpages0001')).toBe(1);
    expect(await attendees('regmeta00001')).toBe(12);
  });
});

describe('refusals', () => {
  const person = { email: 'closed@example.com', full_name: 'Clo Sed' };
  it.each([
    [
      'regdraft0001',
      'event_not_published',
      'Registrations are open only for published events; this one is a draft or awaits approval.',
    ],
    [
      'regapprove01',
      'event_not_published',
      'Registrations are open only for published events; this one is a draft or awaits approval.',
    ],
    [
      'regbutton001',
      'registration_not_enabled',
      "This event does not take registrations (its 'enable_registration_button' is false).",
    ],
    ['regended0001', 'event_ended', 'This event has ended; it takes no more registrations.'],
    ['regnoend0001', 'event_ended', 'This event has ended; it takes no more registrations.'],
  ])('%s: 422 %s, and nothing is kept', async (eventId, code, error) => {
    const profiles = await count('profiles');
    const response = await register(eventId, person);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ success: false, error, code, request_id: response.headers['x-request-id'] });
    expect(await count('profiles')).toBe(profiles);
    expect(await attendees(eventId)).toBe(7);
  });

  it('422 event_deleted for registering for a deleted event; 404 for the rest of its routes and for an unknown one', async () => {
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/admin/v0/calendar_events/regpages0001',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.statusCode).toBe(200);
    const profiles = await count('profiles');
    const refused = await register('regpages0001', person);
    expect([refused.statusCode, refused.json()]).toEqual([
      422,
      errorBody(refused, 'event_deleted', 'This event was deleted; it takes no registrations.'),
    ]);
    expect(await count('profiles')).toBe(profiles);
    // The other community holds an event of the same id, not deleted: it still takes registrations.
    const elsewhere = await register(
      'regpages0001',
      { email: 'elsewhere@example.com', full_name: 'Else Where' },
      otherToken,
    );
    expect([elsewhere.statusCode, elsewhere.json().data.registration.event_id]).toEqual([201, 'regpages0001']);
    const answers = [
      ['regpages0001', await t.get(path('regpages0001'), token)],
      ['regpages0001', await unregister('regpages0001', profileIds.ada)],
      ['nosuchevent1', await register('nosuchevent1', person)],
      ['nosuchevent1', await t.get(path('nosuchevent1'), token)],
      ['nosuchevent1', await unregister('nosuchevent1', profileIds.ada)],
    ] as const;
    for (const [eventId, response] of answers) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(errorBody(response, 'not_found', `Calendar event '${eventId}' was not found.`));
    }
    // Its registrations went with it.
    expect(
      await t.testStore.store.db
        .selectFrom('event_registrations')
        .select('profile_id')
        .where('community_id', '=', acme)
        .where('event_id', '=', 'regpages0001')
        .execute(),
    ).toEqual([]);
  });

  it('400 for a name without a last name or a bad e-mail, naming the field', async () => {
    const profiles = await count('profiles');
    const name = await register('regopen00001', { email: 'x@example.com', full_name: 'Madonna' });
    expect(name.statusCode).toBe(400);
    expect(name.json()).toEqual(
      errorBody(
        name,
        'invalid_body',
        "Invalid body field 'full_name': must be a first and a last name separated by a space.",
        [{ field: 'full_name', message: 'must be a first and a last name separated by a space' }],
      ),
    );
    const email = await register('regopen00001', { email: 'not-an-email', full_name: 'A B' });
    expect(email.statusCode).toBe(400);
    expect(email.json()).toEqual(
      errorBody(email, 'invalid_body', `Invalid body field 'email': must match format "email".`, [
        { field: 'email', message: 'must match format "email"' },
      ]),
    );
    const noName = await register('regopen00001', { email: 'x@example.com' });
    expect(noName.json()).toEqual(
      errorBody(noName, 'invalid_body', "Invalid body field 'full_name': must have required property 'full_name'.", [
        { field: 'full_name', message: "must have required property 'full_name'" },
      ]),
    );
    expect(await count('profiles')).toBe(profiles);
  });

  it('403 without events:write, for the list too (it shows e-mails)', async () => {
    for (const response of [
      await register('regopen00001', person, readToken),
      await t.get(path('regopen00001'), readToken),
      await unregister('regopen00001', profileIds.ada, readToken),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(
        errorBody(
          response,
          'insufficient_scope',
          "This operation needs the 'events:write' scope; the token has: read.",
        ),
      );
    }
  });

  it("another community's token sees 404 and changes nothing of this one", async () => {
    const mine = await register('regopen00001', { email: 'tenant@example.com', full_name: 'Ten Ant' });
    const memberId = mine.json().data.registration.member.id as string;
    const notTheirs = await unregister('regopen00001', memberId, otherToken);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual(
      errorBody(
        notTheirs,
        'not_found',
        `A registration of member '${memberId}' for calendar event 'regopen00001' was not found.`,
      ),
    );
    const theirs = await t.get(path('regopen00001'), otherToken);
    expect(theirs.json().data.total_records).toBe(0);
    // Their own event of the same id: registering there makes their member, not ours.
    const there = await register('regopen00001', { email: 'tenant@example.com', full_name: 'Ten Ant' }, otherToken);
    expect(there.statusCode).toBe(201);
    expect(there.json().data.registration.member.id).not.toBe(memberId);
    expect(await attendees('regopen00001')).toBe(1);
    await unregister('regopen00001', memberId);
  });
});

describe('idempotency and concurrency', () => {
  it('an Idempotency-Key replays the first answer; the same key with another body is 422', async () => {
    const body = { email: 'idem@example.com', full_name: 'Id Em' };
    const first = await register('regidem00001', body, token, { 'idempotency-key': 'reg-1' });
    expect(first.statusCode).toBe(201);
    const replay = await register('regidem00001', body, token, { 'idempotency-key': 'reg-1' });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const reused = await register('regidem00001', { ...body, full_name: 'Id Other' }, token, {
      'idempotency-key': 'reg-1',
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ success: false, code: 'idempotency_key_reused' });
  });

  it('50 parallel registrations of one new e-mail: one member, one registration, one webhook', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        register('regrace00001', { email: i % 2 ? 'RACE@example.com' : 'race@example.com', full_name: 'Ra Ce' }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    expect(new Set(responses.map((r) => r.json().data.registration.member.id)).size).toBe(1);
    expect(await count('profiles', 'race@example.com')).toBe(1);
    expect(await attendees('regrace00001')).toBe(1);
    const sent = (await messagesOf('calendar_event.user_registered')).filter(
      (m) => (m['event'] as { id: string }).id === 'regrace00001',
    );
    expect(sent).toHaveLength(1);
  });
});

describe('webhooks', () => {
  it("sends the hosted product's payload, signed per Standard Webhooks, on register and unregister", async () => {
    const registered = await register('regopen00001', { email: 'hook@example.com', full_name: 'Hoo Kay Smith' });
    const { registration } = registered.json().data;
    const got = await delivered(aboutUser('hook@example.com', 'calendar_event.user_registered'));
    expect(got.verified).not.toBeNull();
    const payload = JSON.parse(got.body);
    const stored = registration.registered_at as string;
    const date = `${stored.slice(0, 10)}T${stored.slice(11, 23)}Z`;
    expect(Object.keys(payload)).toEqual(['version', 'action', 'status', 'date', 'custom_metadata', 'event', 'user']);
    expect(payload).toEqual({
      version: '1.0',
      action: 'calendar_event.user_registered',
      status: 'registered',
      date,
      custom_metadata: 'crm-42',
      event: { id: 'regopen00001', title: 'Event regopen00001', slug: 'event-regopen00001' },
      user: {
        id: registration.member.id,
        first_name: 'Hoo',
        last_name: 'Kay Smith',
        real_name: 'Hoo Kay Smith',
        display_name: 'Hoo Kay Smith',
        email: 'hook@example.com',
        profile_id: registration.member.id,
      },
    });
    expect(Object.keys(payload.user)).toEqual([
      'id',
      'first_name',
      'last_name',
      'real_name',
      'display_name',
      'email',
      'profile_id',
    ]);
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // The standardwebhooks package verified the signature and gives back this very payload.
    expect(got.verified).toEqual(payload);
    expect(got.headers['webhook-id']).toMatch(/^msg_/);

    await unregister('regopen00001', registration.member.id);
    const second = await delivered(aboutUser('hook@example.com', 'calendar_event.user_unregistered'));
    const gone = JSON.parse(second.body);
    expect(second.verified).not.toBeNull();
    expect(Object.keys(gone)).toEqual(Object.keys(payload));
    expect(gone).toEqual({
      ...payload,
      action: 'calendar_event.user_unregistered',
      status: 'unregistered',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(Date.parse(gone.date)).toBeGreaterThanOrEqual(Date.parse(date));
    expect(second.verified).toEqual({ ...gone });
  });

  it('custom_metadata is null when the event has none; events without triggers_webhooks send nothing', async () => {
    const quiet = await register('regopen00002', { email: 'quiet@example.com', full_name: 'Qui Et' });
    expect(quiet.statusCode).toBe(201);
    await register('regmeta00001', { email: 'meta@example.com', full_name: 'Me Ta' });
    const got = await delivered(aboutUser('meta@example.com', 'calendar_event.user_registered'));
    expect(JSON.parse(got.body)).toMatchObject({ event: { id: 'regmeta00001' }, custom_metadata: null });
    // The quiet event's registration made no message at all.
    const quietMessages = (await messagesOf('calendar_event.user_registered')).filter(
      (m) => (m['user'] as { email: string }).email === 'quiet@example.com',
    );
    expect(quietMessages).toEqual([]);
  });

  it('a refused registration sends nothing', async () => {
    const before = (await messagesOf('calendar_event.user_registered')).length;
    expect((await register('regbutton001', { email: 'no@example.com', full_name: 'N O' })).statusCode).toBe(422);
    expect((await messagesOf('calendar_event.user_registered')).length).toBe(before);
  });
});

describe('audit', () => {
  it('records the new member and each registration and unregistration, with the request that made it', async () => {
    const registered = await register('regmeta00001', { email: 'audit@example.com', full_name: 'Au Dit' });
    const memberId = registered.json().data.registration.member.id as string;
    const removed = await unregister('regmeta00001', memberId);
    const rows = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'detail', 'request_id'])
      .where('community_id', '=', acme)
      .where('request_id', 'in', [String(registered.headers['x-request-id']), String(removed.headers['x-request-id'])])
      // The test's clock stands still: the two requests are told apart by their ids (…-1, …-2).
      .orderBy('request_id')
      .orderBy('action')
      .execute();
    const detail = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
    expect(rows.map((row) => ({ ...row, detail: detail(row.detail) }))).toEqual([
      {
        action: 'calendar_event.user_registered',
        subject_id: 'regmeta00001',
        detail: { member_id: memberId, email: 'audit@example.com' },
        request_id: registered.headers['x-request-id'],
      },
      {
        action: 'member.created',
        subject_id: memberId,
        detail: { email: 'audit@example.com' },
        request_id: registered.headers['x-request-id'],
      },
      {
        action: 'calendar_event.user_unregistered',
        subject_id: 'regmeta00001',
        detail: { member_id: memberId, email: 'audit@example.com' },
        request_id: removed.headers['x-request-id'],
      },
    ]);
  });
});

describe('hosted field names', () => {
  it('answers the member with the hosted names; a replay carries X-Idempotent-Replayed', async () => {
    const body = { email: 'hosted@example.com', full_name: 'Hos Ted' };
    const first = await register('regidem00001', body, hostedToken, { 'idempotency-key': 'hosted-1' });
    expect(first.statusCode).toBe(201);
    const member = first.json().data.registration.member;
    expect(Object.keys(member)).toEqual([
      'id',
      'email',
      'full_name',
      'preferred_name',
      'avatar_url_original',
      'slack_profile_id',
      'is_deactivated',
    ]);
    const replay = await register('regidem00001', body, hostedToken, { 'idempotency-key': 'hosted-1' });
    expect(replay.headers['x-idempotent-replayed']).toBe('true');
    const listed = await t.get(path('regidem00001'), hostedToken);
    expect(
      listed.json().data.records.map((r: { member: { slack_profile_id: null } }) => r.member.slack_profile_id),
    ).toEqual([null, null]);
  });
});
