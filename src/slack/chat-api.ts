// The Web API client of the announcement sender (@slack/web-api): unlike the sync's, it never retries by itself.
// A retried chat.postMessage could post twice, so every failure comes back at once, sorted by what it says about
// the call: Slack refused it (nothing done), rate limited it (nothing done; its Retry-After), or the answer never
// came (a timeout, a broken connection, a 5xx: the call may have taken effect). The client is loaded at the first
// call: a server with nothing to announce does not hold it in memory.
import type { WebClient } from '@slack/web-api';
import type { JsonRecord } from '../content/loose-json.js';
import { silentLogger, slackApiBase } from './web-api.js';

export type ChatFailure =
  | { kind: 'refused'; error: string }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'uncertain'; error: string };

/** A call that failed, with what its failure says; its message names the method. */
export class ChatCallError extends Error {
  constructor(
    readonly method: string,
    readonly failure: ChatFailure,
  ) {
    super(
      `${method}: ${
        failure.kind === 'rate_limited'
          ? `rate limited for ${failure.retryAfterSeconds} s`
          : failure.kind === 'refused'
            ? `Slack answered '${failure.error}'`
            : `no answer (${failure.error})`
      }`,
    );
  }
}

export type ChatApi = (method: string, args: Record<string, unknown>) => Promise<JsonRecord>;

type Sdk = typeof import('@slack/web-api');

function failureOf(sdk: Sdk, error: unknown): ChatFailure {
  if (error instanceof sdk.WebAPIRateLimitedError) return { kind: 'rate_limited', retryAfterSeconds: error.retryAfter };
  if (error instanceof sdk.WebAPIPlatformError) return { kind: 'refused', error: error.data.error };
  if (error instanceof sdk.WebAPIHTTPError) return { kind: 'uncertain', error: `HTTP ${error.statusCode}` };
  return { kind: 'uncertain', error: error instanceof Error ? error.message : String(error) };
}

export function chatApi(options: { token: string; apiUrl: string; timeoutMs: number }): ChatApi {
  let loaded: Promise<{ sdk: Sdk; client: WebClient }> | null = null;
  const load = async () => {
    const sdk = await import('@slack/web-api');
    const client = new sdk.WebClient(options.token, {
      slackApiUrl: slackApiBase(options.apiUrl),
      logger: silentLogger,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: options.timeoutMs,
    });
    return { sdk, client };
  };
  return async (method, args) => {
    loaded ??= load();
    const { sdk, client } = await loaded;
    try {
      return (await client.apiCall(method, args)) as unknown as JsonRecord;
    } catch (error) {
      throw new ChatCallError(method, failureOf(sdk, error));
    }
  };
}
