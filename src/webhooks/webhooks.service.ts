// Managing webhooks (what `hearth webhook` does): subscribe a URL, list, remove, show delivery attempts, replay.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { toStored } from '../lib/timestamps.js';
import { checkWebhookUrl } from './webhook-address.js';
import { RETRY_WINDOW_MS } from './webhook-outbox.js';
import { parseEventPatterns } from './webhook-types.js';
import {
  deleteWebhook,
  deliveriesOf,
  findDelivery,
  findWebhook,
  insertWebhook,
  requeueMessage,
  webhooksOf,
} from './webhooks.repository.js';

export class WebhookError extends Error {}

/** A new `whsec_` secret: 24 random bytes, base64 (Standard Webhooks). */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

function checkSecret(secret: string): string {
  const key = secret.startsWith('whsec_') ? secret.slice(6) : '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length < 16) {
    throw new WebhookError('A webhook secret is `whsec_` and at least 16 bytes in base64.');
  }
  return secret;
}

export interface WebhookListing {
  id: string;
  url: string;
  event_types: string[];
  created_at: string;
}

export function createWebhooksService(db: Kysely<Database>, clock: Clock = systemClock) {
  return {
    async add(
      communityId: string,
      url: string,
      options: { events?: string; secret?: string; allowPrivate: boolean },
    ): Promise<WebhookListing & { secret: string }> {
      // The checks that need no network first.
      const secret = options.secret === undefined ? newSecret() : checkSecret(options.secret);
      let patterns: string[];
      try {
        patterns = parseEventPatterns(options.events ?? '*');
        await checkWebhookUrl(url, options.allowPrivate);
      } catch (error) {
        throw new WebhookError((error as Error).message);
      }
      const row = {
        id: newUuid(),
        community_id: communityId,
        url,
        secret,
        event_types: patterns.join(','),
        created_at: toStored(clock()),
      };
      await insertWebhook(db, row);
      return { id: row.id, url, event_types: patterns, created_at: `${row.created_at}+00`, secret };
    },

    async list(communityId: string): Promise<WebhookListing[]> {
      return (await webhooksOf(db, communityId)).map((row) => ({
        id: row.id,
        url: row.url,
        event_types: row.event_types.split(','),
        created_at: `${row.created_at}+00`,
      }));
    },

    remove: (id: string) => deleteWebhook(db, id),

    async deliveries(webhookId: string, limit: number) {
      if (!(await findWebhook(db, webhookId))) throw new WebhookError(`No webhook with id '${webhookId}'.`);
      return (await deliveriesOf(db, webhookId, limit)).map((d) => ({
        id: d.id,
        message_id: d.message_id,
        event_type: d.event_type,
        attempt: Number(d.attempt),
        started_at: `${d.started_at}+00`,
        duration_ms: Number(d.duration_ms),
        status_code: d.status_code === null ? null : Number(d.status_code),
        ok: Boolean(d.ok),
        error: d.error,
        message_state: d.state,
      }));
    },

    /** Sends the message of an attempt again, with the same `webhook-id`, retried for another 24 hours if need be. */
    async replay(deliveryId: string): Promise<string> {
      const delivery = await findDelivery(db, deliveryId);
      if (!delivery) throw new WebhookError(`No delivery with id '${deliveryId}'.`);
      const now = clock();
      await requeueMessage(db, delivery.message_id, toStored(now), toStored(now + RETRY_WINDOW_MS));
      return delivery.message_id;
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
