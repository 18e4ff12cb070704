// `POST /slack/events/{community_slug}`: Slack's Events API request URL of one connected community. The raw bytes
// are kept, the v0 signature checked against the community's signing secret before anything is parsed, then
// `url_verification` answered with its challenge and an `event_callback` written to the inbox and acknowledged at
// once (its application comes after, slack/inbox-applier.ts). Outside /admin/v0: Slack signs, it holds no token.
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { randomBytes } from 'node:crypto';
import { toStored } from '../lib/timestamps.js';
import { isSignedBySlack } from './slack-signature.js';
import { insertEnvelope, signingSecretOf } from './slack-inbox.repository.js';

export interface SlackEventsOptions {
  store: Store;
  clock: Clock;
  /** Told after an envelope was written: this process's applier takes it at once. */
  onInserted(): void;
}

const header = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the inbox lists an event as: its type, and a message's subtype after a colon. */
function typeOf(event: Record<string, unknown>): string {
  const type = typeof event.type === 'string' ? event.type.slice(0, 100) : 'unknown';
  return typeof event.subtype === 'string' ? `${type}:${event.subtype.slice(0, 100)}` : type;
}

export const slackEventsRoutes: FastifyPluginAsync<SlackEventsOptions> = async (app, { store, clock, onInserted }) => {
  // Inbox ids sort in the order this process received its envelopes (the clock, then a counter), so events
  // acknowledged together are applied in Slack's order; the random tail keeps two processes' ids apart.
  let received = 0;
  const inboxId = () =>
    `${clock().toString(36).padStart(9, '0')}-${(received++ % 36 ** 6).toString(36).padStart(6, '0')}-${randomBytes(3).toString('hex')}`;

  // The bytes as sent, whatever the content type says: the signature covers them, and nothing is parsed before it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post<{ Params: { community_slug: string } }>(
    '/slack/events/:community_slug',
    // Hidden from the admin API's document: Slack is the only client (docs/slack.md).
    { schema: { hide: true } },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const target = await signingSecretOf(store.db, request.params.community_slug);
      // An unknown community, one without a signing secret and a wrong signature answer alike.
      const signed =
        target !== undefined &&
        target.signing_secret !== null &&
        isSignedBySlack(
          target.signing_secret,
          header(request.headers['x-slack-request-timestamp']),
          header(request.headers['x-slack-signature']),
          body,
          clock(),
        );
      if (!signed || target === undefined) throw new AppError('invalid_signature');
      let envelope: unknown;
      try {
        envelope = JSON.parse(body.toString('utf8'));
      } catch {
        throw new AppError('invalid_body', 'The request body is not JSON.');
      }
      if (!isObject(envelope)) throw new AppError('invalid_body', 'The request body is not a JSON object.');
      if (envelope.type === 'url_verification') {
        if (typeof envelope.challenge !== 'string')
          throw new AppError('invalid_body', "A url_verification request needs its 'challenge'.");
        return reply.send({ challenge: envelope.challenge });
      }
      if (envelope.type !== 'event_callback') {
        // app_rate_limited and the like carry no event: noted and acknowledged.
        request.log.warn({ slack_type: envelope.type }, 'Slack sent a request that is not an event; acknowledged');
        return reply.code(200).send();
      }
      const { event_id: eventId, event } = envelope;
      if (typeof eventId !== 'string' || eventId === '' || eventId.length > 200 || !isObject(event))
        throw new AppError('invalid_body', "An event_callback needs an 'event_id' and an 'event' object.");
      const inserted = await insertEnvelope(store.db, {
        id: inboxId(),
        community_id: target.community_id,
        event_id: eventId,
        event_type: typeOf(event),
        envelope: body.toString('utf8'),
        received_at: toStored(clock()),
      });
      if (inserted) onInserted();
      return reply.code(200).send();
    },
  );
};
