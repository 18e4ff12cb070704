// Slack Events API requests as Slack sends them: envelopes (event_callback, url_verification) signed with the
// documented v0 scheme (HMAC-SHA256 of `v0:{timestamp}:{body}` with the signing secret), computed here on its own
// so that a mistake in Hearth's verifier cannot hide in a shared helper.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** A signing secret as Slack issues them (32 hexadecimal characters). */
export const SIGNING_SECRET = '3b1f6c0e9d2a4b7c8e5f60718293a4b5';
export const APP_ID = 'A0HEARTH';
export const TEAM_ID = 'T01ACME';

export function signed(secret: string, seconds: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`v0:${seconds}:${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(seconds),
    'x-slack-signature': `v0=${signature}`,
  };
}

let sequence = 0;

/** An event_callback envelope around `event`, with a fresh event_id unless one is given. */
export function envelope(event: Record<string, unknown>, eventId?: string): Record<string, unknown> {
  sequence++;
  return {
    token: 'deprecated-verification-token',
    team_id: TEAM_ID,
    api_app_id: APP_ID,
    event,
    type: 'event_callback',
    event_id: eventId ?? `Ev${String(sequence).padStart(8, '0')}TEST`,
    event_time: 1_773_144_000,
    authorizations: [{ team_id: TEAM_ID, user_id: 'U99BOT', is_bot: true }],
  };
}

/** Posts an envelope to the community's request URL, signed at the app's clock (or `seconds`). */
export function postEvent(
  app: FastifyInstance,
  slug: string,
  body: Record<string, unknown> | string,
  options: { seconds: number; secret?: string; headers?: Record<string, string> },
) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: `/slack/events/${slug}`,
    headers: { ...signed(options.secret ?? SIGNING_SECRET, options.seconds, payload), ...options.headers },
    payload,
  });
}
