// Sends the outbox: claims due messages (one dispatcher at a time per message), signs each per Standard Webhooks,
// posts it with a deadline, and records the attempt; failures are retried with exponential backoff and jitter
// until the message's retry window closes. Every `hearth serve` process runs one.
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { epochOfStored, toStored } from '../lib/timestamps.js';
import type { Metrics } from '../metrics/metrics.js';
import { resolveWebhookUrl, type CheckedUrl, type Resolve } from './webhook-address.js';
import { createWebhookAgents, postWebhook } from './webhook-post.js';
import { createOutboxPruner } from './webhook-retention.js';
import {
  claimDue,
  findWebhook,
  insertDelivery,
  releaseMessage,
  settleMessage,
  type MessageRow,
  type Outcome,
  type WebhookRow,
} from './webhooks.repository.js';

const MAX_DELAY_MS = 3_600_000;
const USER_AGENT = 'Hearth-Webhooks/1';
const HOOK_CACHE_MS = 5000;

export type DispatcherConfig = Pick<
  Config,
  | 'webhookAllowPrivate'
  | 'webhookTimeoutMs'
  | 'webhookRetryBaseMs'
  | 'webhookPollMs'
  | 'webhookConcurrency'
  | 'webhookRetentionDays'
>;

export interface DispatcherOptions {
  store: Store;
  config: DispatcherConfig;
  log: FastifyBaseLogger;
  metrics?: Metrics;
  clock?: Clock;
  random?: () => number;
  /** Resolves receivers' host names (DNS by default); each attempt resolves once and connects to what it checked. */
  resolve?: Resolve;
  /**
   * Subscribes to this process's commits that queued messages (the write runner's), so they leave at once instead
   * of at the next poll, which still finds the messages other processes wrote.
   */
  onMessages?: (wake: () => void) => () => void;
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), at most an hour, with "equal jitter" (half fixed, half random). */
function retryDelay(baseMs: number, attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(30, attempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** How long a claim lasts: longer than an attempt may take, so a live dispatcher never loses its claim. */
const leaseMs = (config: DispatcherConfig) => config.webhookTimeoutMs + 5000;

interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export function startDispatcher(options: DispatcherOptions) {
  const { store, config, log, metrics } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const signers = new Map<string, Webhook>();
  const agents = createWebhookAgents();
  const pruner = createOutboxPruner({ store, retentionDays: config.webhookRetentionDays, clock, log });
  const inFlight = new Map<string, { abort: AbortController; claim: string; done: Promise<void> }>();
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;

  // Webhook rows read for a few seconds at most: a backlog to one receiver does not read its row per message.
  const hooks = new Map<string, { row: Promise<WebhookRow | undefined>; until: number }>();
  function webhookOf(id: string): Promise<WebhookRow | undefined> {
    const now = clock();
    const known = hooks.get(id);
    if (known && known.until > now) return known.row;
    if (hooks.size > 10_000) hooks.clear();
    const row = findWebhook(store.db, id);
    hooks.set(id, { row, until: now + HOOK_CACHE_MS });
    row.catch(() => hooks.delete(id));
    return row;
  }

  async function attempt(message: MessageRow, abort: AbortController): Promise<AttemptResult> {
    const hook = await webhookOf(message.webhook_id);
    if (!hook) return { ok: false, statusCode: null, error: 'webhook removed' };
    let target: CheckedUrl;
    try {
      target = await resolveWebhookUrl(hook.url, config.webhookAllowPrivate, options.resolve);
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as Error).message };
    }
    let signer = signers.get(hook.secret);
    if (!signer) {
      signer = new Webhook(hook.secret);
      signers.set(hook.secret, signer);
    }
    const sentAt = new Date(clock());
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': message.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signer.sign(message.id, sentAt, message.payload),
    };
    const deadline = AbortSignal.timeout(config.webhookTimeoutMs);
    try {
      const response = await postWebhook(
        target,
        headers,
        message.payload,
        AbortSignal.any([abort.signal, deadline]),
        agents,
      );
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `receiver answered ${response.statusCode}` };
    } catch (error) {
      const reason = deadline.aborted ? `no answer within ${config.webhookTimeoutMs} ms` : (error as Error).message;
      return { ok: false, statusCode: null, error: reason };
    }
  }

  async function deliver(message: MessageRow, claim: string, abort: AbortController): Promise<void> {
    const started = clock();
    const result = await attempt(message, abort);
    if (abort.signal.aborted && stopped) {
      // Stopping: the claim goes back at once for another process, and this attempt does not count.
      await releaseMessage(store.db, message.id, claim);
      return;
    }
    const finished = clock();
    const attemptNo = message.attempts + 1;
    let outcome: Outcome;
    if (result.ok) outcome = { state: 'delivered', finishedAt: toStored(finished) };
    else {
      const next = finished + retryDelay(config.webhookRetryBaseMs, attemptNo, random);
      outcome =
        next > epochOfStored(message.retry_until)
          ? { state: 'failed', finishedAt: toStored(finished) }
          : { state: 'pending', nextAttemptAt: toStored(next) };
    }
    await store.db.transaction().execute(async (trx) => {
      await insertDelivery(trx, {
        id: newUuid(),
        message_id: message.id,
        webhook_id: message.webhook_id,
        attempt: attemptNo,
        started_at: toStored(started),
        duration_ms: Math.round(finished - started),
        status_code: result.statusCode,
        ok: result.ok,
        error: result.error,
      });
      await settleMessage(trx, message, claim, outcome);
    });
    const lag = result.ok ? (finished - epochOfStored(message.created_at)) / 1000 : null;
    metrics?.observeWebhookAttempt(result.ok, (finished - started) / 1000, lag);
    if (outcome.state === 'failed') metrics?.webhookFailures.inc();
    const line = {
      webhook_id: message.webhook_id,
      message_id: message.id,
      type: message.event_type,
      attempt: attemptNo,
      status: result.statusCode,
      ms: Math.round(finished - started),
    };
    if (result.ok) log.info(line, 'webhook delivered');
    else log.warn({ ...line, error: result.error, outcome: outcome.state }, 'webhook attempt failed');
  }

  async function claimAndSend(): Promise<void> {
    do {
      again = false;
      const free = config.webhookConcurrency - inFlight.size;
      if (stopped || free <= 0) return;
      const now = clock();
      const claim = toStored(now + leaseMs(config));
      let messages: MessageRow[];
      try {
        messages = await claimDue(store.db, store.dialect, toStored(now), claim, free);
      } catch (error) {
        log.warn({ err: error }, 'webhook dispatcher could not claim messages; trying again at the next poll');
        return;
      }
      for (const message of messages) {
        const abort = new AbortController();
        const done = deliver(message, claim, abort)
          .catch((error: unknown) =>
            log.error({ err: error, message_id: message.id }, 'webhook delivery could not be recorded'),
          )
          .finally(() => {
            inFlight.delete(message.id);
            wake();
          });
        inFlight.set(message.id, { abort, claim, done });
      }
      // A full batch suggests more are due.
      if (messages.length === free) again = true;
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimAndSend().finally(() => {
      claiming = null;
      // A wake-up that came while the last claim was finishing must not wait for the next poll.
      if (again) wake();
    });
  }

  const unsubscribe = options.onMessages?.(wake) ?? (() => {});
  // The poll also prunes the outbox now and then (webhook-retention.ts).
  const poll = setInterval(() => {
    wake();
    pruner.pruneWhenDue();
  }, config.webhookPollMs);
  poll.unref();
  wake();
  pruner.pruneWhenDue();

  return {
    /** Claims now instead of at the next poll. */
    wake,
    inFlight: () => inFlight.size,
    /** Deletes what the retention no longer keeps now instead of at its next run; resolves with the messages deleted. */
    prune: () => pruner.prune(),
    /** Stops claiming, aborts attempts in flight and hands their claims back. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      unsubscribe();
      await pruner.stop();
      await claiming;
      for (const entry of inFlight.values()) entry.abort.abort();
      await Promise.all([...inFlight.values()].map((entry) => entry.done));
      agents.destroy();
    },
  };
}
export type Dispatcher = ReturnType<typeof startDispatcher>;
