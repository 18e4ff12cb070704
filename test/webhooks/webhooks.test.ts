// Webhooks in one process: signed per Standard Webhooks and verified by a real receiver, retries, replay, the
// outbox inside the change's transaction (a rollback sends nothing), member and import events, tenancy, URL rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEventWritesService } from '../../src/events/event-writes.service.js';
import { createMetrics, scrape } from '../../src/metrics/metrics.js';
import { startDispatcher, type Dispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { isInternalAddress } from '../../src/webhooks/webhook-address.js';
import { createWebhooksService, newSecret } from '../../src/webhooks/webhooks.service.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { createWriteRunner } from '../../src/writes/write-runner.js';
import { refreshFragments } from '../../src/rendering/fragment-refresh.js';

let t: TestApp;
let acme: string;
let other: string;
let token: string;
let otherToken: string;
let receiver: Receiver;
let otherReceiver: Receiver;
let dispatcher: Dispatcher;
let webhookId: string;
const metrics = createMetrics();
const secret = newSecret();

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, auth: string, body?: unknown) =>
  t.app.inject({
    method,
    url: `/admin/v0${url}`,
    headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const event = {
  title: 'Hooked meetup',
  start_date: '2026-12-01T18:00:00Z',
  end_date: '2026-12-01T20:00:00Z',
  hosts: [profileIds.ada],
  description: { text: 'With webhooks' },
  triggers_webhooks: true,
  webhook_custom_metadata: 'crm-42',
};

const outboxCount = async () =>
  Number(
    (
      await t.testStore.store.db
        .selectFrom('webhook_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The newest attempts once `count` are recorded, the newest of them for `messageId` when given (a receiver has
 * its request before the attempt is written, so without it the newest row may still be an earlier test's).
 */
async function attempts(count: number, messageId?: string) {
  const hooks = createWebhooksService(t.testStore.store.db);
  for (let tries = 0; ; tries++) {
    const found = await hooks.deliveries(webhookId, count);
    const settled = found.length >= count && found.every((a) => a.message_state !== 'pending');
    if ((settled && (messageId === undefined || found[0]?.message_id === messageId)) || tries > 200) return found;
    await pause(20);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  other = await t.community('other');
  await t.importRecords(acme, baseRecords);
  await t.importRecords(other, baseRecords);
  token = await t.token(acme, ['read', 'events:write', 'members:write']);
  otherToken = await t.token(other, ['read', 'events:write']);
  receiver = await startReceiver(secret);
  const otherSecret = newSecret();
  otherReceiver = await startReceiver(otherSecret);
  const hooks = createWebhooksService(t.testStore.store.db);
  webhookId = (await hooks.add(acme, receiver.url, { secret, allowPrivate: true })).id;
  await hooks.add(other, otherReceiver.url, { secret: otherSecret, events: 'calendar_event.*', allowPrivate: true });
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
    metrics,
    onMessages: (wake) => t.app.writes.committed.subscribe((commit) => commit.messages > 0 && wake()),
  });
});
afterAll(async () => {
  await dispatcher.stop();
  await receiver.close();
  await otherReceiver.close();
  await t.close();
});
beforeEach(() => {
  // The outbox's retry window counts from the change: the app's clock runs with the real one here.
  t.clock.now = Date.now();
  receiver.received.length = 0;
  receiver.respond = () => 204;
});

describe('delivery', () => {
  it('signs each message per Standard Webhooks; the receiver verifies it and gets the event as GET answers it', async () => {
    const created = await send('POST', '/calendar_events', token, event);
    expect(created.statusCode).toBe(201);
    const [got] = await receiver.waitFor(1);
    expect(got?.verified).toEqual({
      type: 'calendar_event.created',
      timestamp: new Date(t.clock.now).toISOString(),
      data: created.json().data,
    });
    expect(got?.verified?.data['webhook_custom_metadata']).toBe('crm-42');
    expect(got?.id).toMatch(/^msg_[A-Za-z0-9_-]{20}$/);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(got?.timestamp) - Date.now() / 1000)).toBeLessThan(10);
    expect((await attempts(1, got?.id))[0]).toMatchObject({
      message_id: got?.id,
      event_type: 'calendar_event.created',
      attempt: 1,
      status_code: 204,
      ok: true,
      error: null,
      message_state: 'delivered',
    });
  });

  it('sends updated and deleted, and nothing for events that do not trigger webhooks', async () => {
    const quiet = (await send('POST', '/calendar_events', token, { ...event, triggers_webhooks: false })).json().data;
    const loud = (await send('POST', '/calendar_events', token, event)).json().data;
    await receiver.waitFor(1);
    expect(receiver.received.map((r) => r.verified?.type)).toEqual(['calendar_event.created']);
    expect(receiver.received[0]?.verified?.data['id']).toBe(loud.id);
    const patched = await send('PATCH', `/calendar_events/${loud.id}`, token, { title: 'Hooked, renamed' });
    await send('PATCH', `/calendar_events/${quiet.id}`, token, { title: 'Quiet, renamed' });
    await receiver.waitFor(2);
    await send('DELETE', `/calendar_events/${loud.id}`, token);
    await receiver.waitFor(3);
    await pause(200);
    expect(receiver.received.map((r) => [r.verified?.type, r.verified?.data['id']])).toEqual([
      ['calendar_event.created', loud.id],
      ['calendar_event.updated', loud.id],
      ['calendar_event.deleted', loud.id],
    ]);
    expect(receiver.received[1]?.verified?.data).toEqual(patched.json().data);
    expect(receiver.received[2]?.verified?.data).toEqual(patched.json().data);
  });

  it('sends the update that turns triggers_webhooks off, and nothing after it (issue 35, item 10)', async () => {
    const loud = (await send('POST', '/calendar_events', token, { ...event, title: 'Hooked, then quiet' })).json().data;
    await receiver.waitFor(1);
    const silenced = await send('PATCH', `/calendar_events/${loud.id}`, token, { triggers_webhooks: false });
    expect([silenced.statusCode, silenced.json().data.triggers_webhooks]).toEqual([200, false]);
    await receiver.waitFor(2);
    await send('PATCH', `/calendar_events/${loud.id}`, token, { title: 'Quiet now' });
    await send('DELETE', `/calendar_events/${loud.id}`, token);
    await pause(300);
    expect(receiver.received.map((r) => [r.verified?.type, r.verified?.data['id']])).toEqual([
      ['calendar_event.created', loud.id],
      ['calendar_event.updated', loud.id],
    ]);
    expect(receiver.received[1]?.verified?.data).toEqual(silenced.json().data);
    const queued = await t.testStore.store.db
      .selectFrom('webhook_messages')
      .select('event_type')
      .where('webhook_id', '=', webhookId)
      .where('payload', 'like', `%"id":"${loud.id}"%`)
      .execute();
    expect(queued.map((m) => m.event_type).sort()).toEqual(['calendar_event.created', 'calendar_event.updated']);
  });

  it('sends the update of an import that turns triggers_webhooks off (issue 35, item 10)', async () => {
    const loud = (await send('POST', '/calendar_events', token, { ...event, title: 'Hooked, imported quiet' })).json()
      .data;
    await receiver.waitFor(1);
    await t.importRecords(acme, [
      { kind: 'calendar_event', id: loud.id, title: 'Imported quiet', start_date: '2026-12-02T10:00:00Z' },
    ]);
    await receiver.waitFor(3);
    await pause(200);
    const read = await t.get(`/admin/v0/calendar_events/${loud.id}`, token);
    // Messages of one change go out in no particular order.
    expect(receiver.received.map((r) => r.verified?.type).sort()).toEqual([
      'calendar_event.created',
      'calendar_event.updated',
      'import.completed',
    ]);
    const updated = receiver.received.find((r) => r.verified?.type === 'calendar_event.updated');
    expect(updated?.verified?.data).toEqual(read.json().data);
    expect(read.json().data).toMatchObject({ id: loud.id, title: 'Imported quiet', triggers_webhooks: false });
  });

  it('retries a receiver that fails twice, then delivers, always with the same webhook-id', async () => {
    receiver.respond = (_request, index) => (index < 2 ? 500 : 204);
    await send('POST', '/calendar_events', token, event);
    const got = await receiver.waitFor(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified !== null && r.body === got[0]?.body)).toBe(true);
    expect(
      (await attempts(3, got[0]?.id)).map((a) => [
        a.message_id,
        a.attempt,
        a.status_code,
        a.ok,
        a.error,
        a.message_state,
      ]),
    ).toEqual([
      [got[0]?.id, 3, 204, true, null, 'delivered'],
      [got[0]?.id, 2, 500, false, 'receiver answered 500', 'delivered'],
      [got[0]?.id, 1, 500, false, 'receiver answered 500', 'delivered'],
    ]);
  });

  it('replays a delivery with the same webhook-id', async () => {
    await send('POST', '/calendar_events', token, event);
    const [first] = await receiver.waitFor(1);
    const [attempt] = await attempts(1, first?.id);
    expect(await createWebhooksService(t.testStore.store.db).replay(attempt?.id ?? '')).toBe(first?.id);
    dispatcher.wake();
    const again = await receiver.waitFor(2);
    expect([again[1]?.id, again[1]?.body]).toEqual([first?.id, first?.body]);
  });

  it('sends nothing for a change that rolls back', async () => {
    const before = await outboxCount();
    const writes = createEventWritesService(
      createWriteRunner(t.testStore.store.db, () => t.clock.now, refreshFragments),
      t.testStore.store.dialect,
    );
    const actor = { communityId: acme, tokenId: 'test', requestId: 'rollback' };
    await expect(
      writes.create(actor, { ...event, title: 'Rolled back' }, async () => {
        throw new Error('a later step of the transaction failed');
      }),
    ).rejects.toThrow('a later step of the transaction failed');
    expect(await outboxCount()).toBe(before);
    const rows = await t.testStore.store.db
      .selectFrom('calendar_events')
      .select('id')
      .where('title', '=', 'Rolled back')
      .execute();
    expect(rows).toEqual([]);
    dispatcher.wake();
    await pause(300);
    expect(receiver.received).toEqual([]);
  });
});

describe('members and imports', () => {
  it('sends member.created, member.deactivated and member.updated on reactivation', async () => {
    const added = await send('POST', '/members', token, { email: 'hook@example.com', full_name: 'Hook Person' });
    const member = added.json().data.member;
    expect(member.is_deactivated).toBe(false);
    const deactivated = await send('POST', `/members/${member.id}/deactivate`, token);
    expect(deactivated.json()).toEqual({
      success: true,
      message: 'Member was deactivated successfully.',
      data: { member: { ...member, is_deactivated: true } },
    });
    const twice = await send('POST', `/members/${member.id}/deactivate`, token);
    expect(twice.json().message).toBe('Member was already deactivated.');
    const readded = await send('POST', '/members', token, { email: 'HOOK@example.com', full_name: 'Hook Person' });
    expect([readded.statusCode, readded.json().message, readded.json().data.member.is_deactivated]).toEqual([
      200,
      'Member was deactivated and has been reactivated and updated successfully.',
      false,
    ]);
    await receiver.waitFor(3);
    await pause(200);
    // Messages are not ordered among themselves (several are in flight at once); receivers order by the payload's timestamp.
    expect(
      receiver.received
        .map((r) => [r.verified?.type, r.verified?.data['id'], r.verified?.data['is_deactivated']])
        .sort(),
    ).toEqual([
      ['member.created', member.id, false],
      ['member.deactivated', member.id, true],
      ['member.updated', member.id, false],
    ]);
    const unknown = await send('POST', '/members/5b1c2d3e-0000-4000-8000-0000000000ff/deactivate', token);
    expect([unknown.statusCode, unknown.json().error]).toEqual([
      404,
      "Member '5b1c2d3e-0000-4000-8000-0000000000ff' was not found.",
    ]);
  });

  it('fires the same event types for an import, then import.completed with the counts', async () => {
    await t.importRecords(acme, [
      {
        kind: 'profile',
        profile_id: '5b1c2d3e-0000-4000-8000-0000000000c1',
        preferred_name: 'Imported One',
        email: 'one@example.com',
      },
      {
        kind: 'calendar_event',
        id: 'evimported01',
        title: 'Imported',
        start_date: '2026-12-02T10:00:00Z',
        triggers_webhooks: true,
        webhook_custom_metadata: 'from-import',
      },
      { kind: 'calendar_event', id: 'evimported02', title: 'Imported quietly', start_date: '2026-12-02T10:00:00Z' },
    ]);
    await receiver.waitFor(3);
    await pause(200);
    const byType = new Map(receiver.received.map((r) => [r.verified?.type, r.verified?.data]));
    expect([...byType.keys()].sort()).toEqual(['calendar_event.created', 'import.completed', 'member.created']);
    expect(byType.get('calendar_event.created')).toMatchObject({
      id: 'evimported01',
      webhook_custom_metadata: 'from-import',
    });
    expect(byType.get('member.created')).toMatchObject({
      id: '5b1c2d3e-0000-4000-8000-0000000000c1',
      email: 'one@example.com',
      is_deactivated: false,
    });
    expect(byType.get('import.completed')).toEqual({
      records: 3,
      feeds: 0,
      profiles: 1,
      tags: 0,
      calendar_events: 2,
      posts: 0,
      comments: 0,
      badges: 0,
      groups: 0,
    });
  });
});

describe('tenancy and addresses', () => {
  it("never sends one community's change to another's webhook", async () => {
    const before = otherReceiver.received.length;
    await send('POST', '/calendar_events', token, event);
    await receiver.waitFor(1);
    await pause(200);
    expect(otherReceiver.received.length).toBe(before);
    const own = (await send('POST', '/calendar_events', otherToken, { ...event, title: 'Other hooked' })).json().data;
    const got = await otherReceiver.waitFor(before + 1);
    expect(got.at(-1)?.verified?.data['id']).toBe(own.id);
    expect(got.every((r) => r.verified?.data['title'] !== 'Hooked meetup')).toBe(true);
    expect(receiver.received.length).toBe(1);
  });

  it('refuses non-http(s) URLs and internal addresses unless allowed', async () => {
    const hooks = createWebhooksService(t.testStore.store.db);
    const refusal = (url: string) =>
      hooks.add(acme, url, { allowPrivate: false }).then(
        () => 'added',
        (e: Error) => e.message,
      );
    expect(await refusal('ftp://example.com/x')).toBe("Webhook URLs must be http or https, not 'ftp:'.");
    expect(await refusal('not a url')).toBe("'not a url' is not a URL.");
    expect(await refusal('http://127.0.0.1:9/x')).toBe(
      "The host '127.0.0.1' resolves to an internal address (127.0.0.1); set WEBHOOK_ALLOW_PRIVATE=true to allow it.",
    );
    expect(await refusal('http://[::1]/x')).toBe(
      "The host '::1' resolves to an internal address (::1); set WEBHOOK_ALLOW_PRIVATE=true to allow it.",
    );
    expect(await refusal('http://localhost/x')).toMatch(
      /^The host 'localhost' resolves to an internal address \((127\.0\.0\.1|::1)/,
    );
    expect(await refusal('https://10.1.2.3/x')).toMatch(/internal address \(10\.1\.2\.3\)/);
    expect(
      await hooks
        .add(acme, 'ftp://example.com/', { events: 'member.nope', allowPrivate: true })
        .catch((e: Error) => e.message),
    ).toMatch(/^Unknown event type\(s\) 'member.nope'/);
    expect(
      ['192.168.1.1', '172.16.0.1', '169.254.169.254', '::ffff:10.0.0.1', 'fd00::1', '0.0.0.0'].map(isInternalAddress),
    ).toEqual([true, true, true, true, true, true]);
    expect(['93.184.216.34', '2606:2800:220:1::1'].map(isInternalAddress)).toEqual([false, false]);
  });

  it('counts attempts and delivery lag in the metrics', async () => {
    const text = (await scrape(metrics)).body;
    expect(text).toMatch(/hearth_webhook_attempt_duration_seconds_count\{outcome="ok"\} \d+/);
    expect(text).toMatch(/hearth_webhook_attempt_duration_seconds_count\{outcome="failed"\} 2\n/);
    expect(text).toMatch(/hearth_webhook_delivery_lag_seconds_count \d+/);
  });
});
