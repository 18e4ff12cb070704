// Webhook addresses as an attacker writes them: internal IPv4 addresses hidden in IPv6 forms are refused, and the
// dispatcher connects to the very address it checked (a host that resolves otherwise the second time is not asked again).
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { isInternalAddress } from '../../src/webhooks/webhook-address.js';
import { startDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { createWebhooksService, newSecret } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let acme: string;
let token: string;
let receiver: Receiver;
const secret = newSecret();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await createTestApp();
  // The outbox's messages fall due on the app's clock, the dispatcher's on the wall clock.
  t.clock.now = Date.now();
  acme = await t.community('acme');
  await t.importRecords(acme, baseRecords);
  token = await t.token(acme, ['read', 'members:write']);
  receiver = await startReceiver(secret);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const refusal = (url: string) =>
  createWebhooksService(t.testStore.store.db)
    .add(acme, url, { allowPrivate: false })
    .then(
      () => 'added',
      (e: Error) => e.message,
    );
const refused = (host: string, addresses = host) =>
  `The host '${host}' resolves to an internal address (${addresses}); set WEBHOOK_ALLOW_PRIVATE=true to allow it.`;

describe('IPv6 forms of internal IPv4 addresses', () => {
  it('refuses each form the outside tests found, and the other tunnels, without WEBHOOK_ALLOW_PRIVATE', async () => {
    expect(
      await Promise.all(
        [
          'http://[::127.0.0.1]/x',
          'http://[64:ff9b::127.0.0.1]/x',
          'http://[::ffff:0:127.0.0.1]/x',
          'http://[2002:7f00:1::]/x',
          'http://[::ffff:10.0.0.1]/x',
          'http://[2002:c0a8:101::1]/x',
          'http://[2001:0:5db8:1::f5ff:fffe]/x',
          'http://[64:ff9b:1::808:808]/x',
        ].map(refusal),
      ),
    ).toEqual([
      refused('::7f00:1'),
      refused('64:ff9b::7f00:1'),
      refused('::ffff:0:7f00:1'),
      refused('2002:7f00:1::'),
      refused('::ffff:a00:1'),
      refused('2002:c0a8:101::1'),
      refused('2001:0:5db8:1::f5ff:fffe'),
      refused('64:ff9b:1::808:808'),
    ]);
  });

  it('judges an IPv6 address by the IPv4 address it embeds, and public ones stay allowed', () => {
    expect(
      [
        '::127.0.0.1',
        '::7f00:1',
        '64:ff9b::a9fe:a9fe',
        '::ffff:0:192.168.1.1',
        '2002:a00:1:1::1',
        '2001:0:7f00:1::',
        '2001:0:5db8:1::f5ff:fffe',
        '::ffff:127.0.0.1%eth0',
      ].map(isInternalAddress),
    ).toEqual([true, true, true, true, true, true, true, true]);
    expect(
      [
        '64:ff9b::8.8.8.8',
        '2002:808:808::1',
        '::ffff:93.184.216.34',
        '2001:0:5db8:1::a247:27cb',
        '2606:4700::1111',
      ].map(isInternalAddress),
    ).toEqual([false, false, false, false, false]);
  });
});

describe('the dispatcher connects to the address it checked', () => {
  const addMember = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/admin/v0/members',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ email, full_name: 'Rebind Test' }),
    });
  const port = () => new URL(receiver.url).port;
  const latest = async (webhookId: string) => {
    for (let tries = 0; tries < 250; tries++) {
      const [attempt] = await createWebhooksService(t.testStore.store.db).deliveries(webhookId, 1);
      if (attempt) return attempt;
      await pause(20);
    }
    throw new Error('no attempt recorded');
  };

  it('resolves the host once per attempt and sends to that address, with the URL host in Host', async () => {
    const hooks = createWebhooksService(t.testStore.store.db);
    const hook = await hooks.add(acme, `http://rebind.test:${port()}/hooks`, { secret, allowPrivate: true });
    // The receiver is at 127.0.0.1 only: a second lookup would send the message to 127.0.0.2, where nothing listens.
    const asked: string[] = [];
    const resolve = async (host: string): Promise<LookupAddress[]> => {
      asked.push(host);
      return [{ address: asked.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    };
    const dispatcher = startDispatcher({
      store: t.testStore.store,
      config: {
        webhookAllowPrivate: true,
        webhookTimeoutMs: 2000,
        webhookRetryBaseMs: 60_000,
        webhookPollMs: 50,
        webhookConcurrency: 1,
        webhookRetentionDays: 7,
      },
      log: t.app.log,
      resolve,
    });
    try {
      expect((await addMember('rebind-1@example.com')).statusCode).toBe(201);
      const [got] = await receiver.waitFor(1);
      const attempt = await latest(hook.id);
      expect({
        host: got?.headers.host,
        type: got?.verified?.type,
        asked,
        ok: attempt.ok,
        status: attempt.status_code,
        error: attempt.error,
      }).toEqual({
        host: `rebind.test:${port()}`,
        type: 'member.created',
        asked: ['rebind.test'],
        ok: true,
        status: 204,
        error: null,
      });
    } finally {
      await dispatcher.stop();
      await hooks.remove(hook.id);
    }
  });

  it('without WEBHOOK_ALLOW_PRIVATE, checks what its own lookup answered and sends nothing to an internal address', async () => {
    const hooks = createWebhooksService(t.testStore.store.db);
    // Public when the webhook is added; internal at delivery (a rebinding name).
    const hook = await hooks.add(acme, `http://rebind.test:${port()}/hooks`, { secret, allowPrivate: true });
    const before = receiver.received.length;
    const dispatcher = startDispatcher({
      store: t.testStore.store,
      config: {
        webhookAllowPrivate: false,
        webhookTimeoutMs: 2000,
        webhookRetryBaseMs: 60_000,
        webhookPollMs: 50,
        webhookConcurrency: 1,
        webhookRetentionDays: 7,
      },
      log: t.app.log,
      resolve: async () => [{ address: '::ffff:0:127.0.0.1', family: 6 }],
    });
    try {
      expect((await addMember('rebind-2@example.com')).statusCode).toBe(201);
      const attempt = await latest(hook.id);
      expect([attempt.ok, attempt.status_code, attempt.error, attempt.message_state]).toEqual([
        false,
        null,
        refused('rebind.test', '::ffff:0:127.0.0.1'),
        'pending',
      ]);
      expect(receiver.received.length).toBe(before);
    } finally {
      await dispatcher.stop();
      await hooks.remove(hook.id);
    }
  });
});
