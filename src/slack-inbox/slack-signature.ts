// Slack's request signing, version v0: HMAC-SHA256 keyed with the app's signing secret over
// `v0:{X-Slack-Request-Timestamp}:{raw body}`, compared in constant time, with a five-minute window either side of
// the local clock against replays. A few lines of node:crypto: Bolt's verifier would bring Express with it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's replay window: a timestamp further than this from the local clock is refused, earlier or later. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** The `v0=<hex>` signature of a body sent at `timestamp` (epoch seconds, as the header gives it). */
export function slackSignature(secret: string, timestamp: string, body: Buffer | string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
}

/**
 * Whether the headers sign `body` with `secret` within the window around `nowMs`. Anything missing, malformed,
 * of another version, stale or different is simply false: the caller answers the same 401 for every case.
 */
export function isSignedBySlack(
  secret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  body: Buffer,
  nowMs: number,
): boolean {
  if (secret === '' || timestamp === undefined || signature === undefined) return false;
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return false;
  if (!/^v0=[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(slackSignature(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
