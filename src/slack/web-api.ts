// Slack's Web API through its official client (@slack/web-api): every call a POST with the bot token, a 429 waited
// out for its Retry-After (the client pauses its queue), other failures retried a few times. The client logs
// nothing of its own here; the token is never logged or written anywhere. The client is loaded at the first call:
// a server that never syncs does not hold it in memory.
import type { WebClient } from '@slack/web-api';
import type { JsonRecord } from '../content/loose-json.js';

export interface SlackApiOptions {
  token: string;
  /** `https://slack.com/api/` (config SLACK_API_URL). */
  apiUrl: string;
  /** Retries of a failed or rate-limited call. */
  retries: number;
  /** First wait before a retry (doubling after); a 429 waits its Retry-After first. */
  minRetryMs?: number;
  onRateLimited?(seconds: number, method: string): void;
}

/** A call that failed after its retries (or at once, for an error Slack answered); names the method. */
export class SlackApiError extends Error {}

/** One method's answer: `ok` was true (the client throws otherwise), the rest read as loose JSON. */
export type SlackApi = (method: string, args: Record<string, unknown>) => Promise<JsonRecord>;

/** The Web API's base as the official clients want it (`slackApiUrl`): ending in a slash. */
export const slackApiBase = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

/** A logger for the official Web API clients that says nothing: theirs would log payloads. */
export const silentLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => 'error' as never,
  setName() {},
};

async function clientOf(options: SlackApiOptions): Promise<WebClient> {
  const { WebClient, WebClientEvent } = await import('@slack/web-api');
  const client = new WebClient(options.token, {
    slackApiUrl: slackApiBase(options.apiUrl),
    logger: silentLogger,
    retryConfig: { retries: options.retries, factor: 2, minTimeout: options.minRetryMs ?? 1000, maxTimeout: 60_000 },
    maxRequestConcurrency: 1,
    timeout: 60_000,
  });
  client.on(WebClientEvent.RATE_LIMITED, (seconds: number, { url }: { url: string }) =>
    options.onRateLimited?.(seconds, url.slice(url.lastIndexOf('/') + 1)),
  );
  return client;
}

export function slackApi(options: SlackApiOptions): SlackApi {
  let client: Promise<WebClient> | null = null;
  return async (method, args) => {
    try {
      client ??= clientOf(options);
      return (await (await client).apiCall(method, args)) as unknown as JsonRecord;
    } catch (error) {
      throw new SlackApiError(`${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
