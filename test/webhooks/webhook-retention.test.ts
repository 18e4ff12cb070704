// The outbox's retention: messages delivered or failed longer ago than WEBHOOK_RETENTION_DAYS go with their attempts,
// in batches; recent and pending ones stay, and `webhook deliveries` still lists the recent attempts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { toStored } from '../../src/lib/timestamps.js';
import { startDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { PRUNE_BATCH } from '../../src/webhooks/webhook-retention.js';
import { insertMessages, pruneFinished } from '../../src/webhooks/webhooks.repository.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
const now = Date.parse('2026-03-20T12:00:00Z');
let t: TestApp;
let webhookId: string;

type State = 'pending' | 'delivered' | 'failed';

/** `count` messages of `state`, finished (or, pending, created) `daysAgo` days before now, each with two attempts. */
async function messages(prefix: string, state: State, daysAgo: number, count: number): Promise<void> {
  const at = now - daysAgo * DAY;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `msg_${prefix}_${String(i).padStart(5, '0')}`,
    webhook_id: webhookId,
    community_id: 'c',
    event_type: 'member.created',
    payload: '{}',
    created_at: toStored(at - 60_000),
    state,
    attempts: 2,
    // A pending message is not due during the test: the dispatcher leaves it alone.
    next_attempt_at: toStored(state === 'pending' ? now + DAY : at - 1000),
    retry_until: toStored(at + DAY),
    claimed_until: null,
    finished_at: state === 'pending' ? null : toStored(at),
  }));
  for (let i = 0; i < rows.length; i += 500) await insertMessages(t.testStore.store.db, rows.slice(i, i + 500));
  const attempts = rows.flatMap((row) =>
    [1, 2].map((attempt) => {
      const ok = attempt === 2 && state === 'delivered';
      return {
        id: `del_${row.id.slice(4)}_${attempt}`,
        message_id: row.id,
        webhook_id: webhookId,
        attempt,
        started_at: toStored(at - (3 - attempt) * 1000),
        duration_ms: 5,
        status_code: ok ? 204 : 500,
        ok,
        error: ok ? null : 'receiver answered 500',
      };
    }),
  );
  for (let i = 0; i < attempts.length; i += 500)
    await t.testStore.store.db
      .insertInto('webhook_deliveries')
      .values(attempts.slice(i, i + 500))
      .execute();
}

async function remaining() {
  const db = t.testStore.store.db;
  const byPrefix = async (table: 'webhook_messages' | 'webhook_deliveries') => {
    const ids = (await db.selectFrom(table).select('id').execute()).map((r) => r.id.split('_')[1] ?? '');
    return Object.fromEntries([...new Set(ids)].sort().map((p) => [p, ids.filter((id) => id === p).length]));
  };
  return { messages: await byPrefix('webhook_messages'), attempts: await byPrefix('webhook_deliveries') };
}

beforeAll(async () => {
  t = await createTestApp({ now });
  const acme = await t.community('acme');
  webhookId = (
    await createWebhooksService(t.testStore.store.db, () => now).add(acme, 'http://127.0.0.1:9/hooks', {
      allowPrivate: true,
    })
  ).id;
  // Old enough to go: more than two batches of delivered messages, and some failed ones.
  await messages('olddelivered', 'delivered', 8, 2 * PRUNE_BATCH + 103);
  await messages('oldfailed', 'failed', 30, 7);
  // Kept: finished within the retention, and pending however old.
  await messages('recent', 'delivered', 6.9, 3);
  await messages('recentfailed', 'failed', 1, 2);
  await messages('oldpending', 'pending', 9, 4);
});
afterAll(() => t.close());

describe('webhook outbox retention', () => {
  it('is 7 days unless WEBHOOK_RETENTION_DAYS says otherwise, at least 1', () => {
    expect(loadConfig({}).webhookRetentionDays).toBe(7);
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: '30' }).webhookRetentionDays).toBe(30);
    expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: '0' })).toThrow(
      "Invalid configuration: WEBHOOK_RETENTION_DAYS: got '0'; allowed: a whole number, 1 or more",
    );
  });

  it('deletes delivered and failed messages older than the retention with their attempts, and keeps recent and pending ones', async () => {
    expect(await remaining()).toEqual({
      messages: { olddelivered: 1103, oldfailed: 7, oldpending: 4, recent: 3, recentfailed: 2 },
      attempts: { olddelivered: 2206, oldfailed: 14, oldpending: 8, recent: 6, recentfailed: 4 },
    });
    const dispatcher = startDispatcher({
      store: t.testStore.store,
      config: { ...loadConfig({}), webhookPollMs: 50 },
      log: t.app.log,
      clock: () => now,
    });
    try {
      // The run the dispatcher starts with, then one asked for: nothing is left for the second.
      await dispatcher.prune();
      expect(await dispatcher.prune()).toBe(0);
    } finally {
      await dispatcher.stop();
    }
    expect(await remaining()).toEqual({
      messages: { oldpending: 4, recent: 3, recentfailed: 2 },
      attempts: { oldpending: 8, recent: 6, recentfailed: 4 },
    });
    const listed = await createWebhooksService(t.testStore.store.db).deliveries(webhookId, 100);
    expect(listed.map((d) => [d.id, d.message_state])).toEqual([
      ['del_recentfailed_00001_2', 'failed'],
      ['del_recentfailed_00000_2', 'failed'],
      ['del_recentfailed_00001_1', 'failed'],
      ['del_recentfailed_00000_1', 'failed'],
      ['del_recent_00002_2', 'delivered'],
      ['del_recent_00001_2', 'delivered'],
      ['del_recent_00000_2', 'delivered'],
      ['del_recent_00002_1', 'delivered'],
      ['del_recent_00001_1', 'delivered'],
      ['del_recent_00000_1', 'delivered'],
      ['del_oldpending_00003_2', 'pending'],
      ['del_oldpending_00002_2', 'pending'],
      ['del_oldpending_00001_2', 'pending'],
      ['del_oldpending_00000_2', 'pending'],
      ['del_oldpending_00003_1', 'pending'],
      ['del_oldpending_00002_1', 'pending'],
      ['del_oldpending_00001_1', 'pending'],
      ['del_oldpending_00000_1', 'pending'],
    ]);
  });

  it('deletes one batch per statement: a run of 500 leaves the rest for the next statement', async () => {
    await messages('batch', 'delivered', 10, PRUNE_BATCH + 1);
    const { store } = t.testStore;
    const cutoff = toStored(now - 7 * DAY);
    expect(await pruneFinished(store.db, store.dialect, cutoff, PRUNE_BATCH)).toBe(PRUNE_BATCH);
    expect((await remaining()).messages).toEqual({ batch: 1, oldpending: 4, recent: 3, recentfailed: 2 });
    expect(await pruneFinished(store.db, store.dialect, cutoff, PRUNE_BATCH)).toBe(1);
    expect(await remaining()).toEqual({
      messages: { oldpending: 4, recent: 3, recentfailed: 2 },
      attempts: { oldpending: 8, recent: 6, recentfailed: 4 },
    });
  });
});
