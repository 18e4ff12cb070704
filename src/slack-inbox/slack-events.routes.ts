// `POST /slack/events/{community_slug}`: Slack's Events API request URL of one connected community. The raw bytes
// are kept, the v0 signature checked against the community's signing secret before anything is parsed, then
// `url_verification` answered with its challenge and an `event_callback` written to the inbox and acknowledged at
// once (its application comes after, slack/inbox-applier.ts). Outside /admin/v0: Slack signs, it holds no token.
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { isSignedBySlack } from './slack-signature.js';
import type { InboxIntake } from './inbox-intake.js';
import { signingSecretOf } from './slack-inbox.repository.js';

export interface SlackEventsOptions {
  store: Store;
  clock: Clock;
  /** Writes an event_callback to the inbox (the same intake as Socket Mode's). */
  intake: InboxIntake;
}

const header = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const slackEventsRoutes: FastifyPluginAsync<SlackEventsOptions> = async (app, { store, clock, intake }) => {
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
      await intake(target.community_id, envelope, body.toString('utf8'));
      return reply.code(200).send();
    },
  );
};
