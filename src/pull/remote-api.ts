// Reading another server's admin API (the hosted product or another Hearth): bearer token, a timeout per
// request, and retries on 429 (after its Retry-After), 5xx and network failures.

export class PullError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'PullError';
  }
}

export interface RemoteOptions {
  /** The server's base URL; a trailing `/admin/v0` is allowed. */
  from: string;
  token: string;
  /** Further attempts after a retryable failure. */
  retries: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each retry, to show it. */
  onRetry?: (reason: string, waitMs: number) => void;
}

const MAX_WAIT_MS = 60_000;

/** `https://example.com/admin/v0/` -> `https://example.com/admin/v0`; refuses what is not an http(s) URL. */
function adminRoot(from: string): string {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new PullError(`--from '${from}' is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PullError(`--from '${from}' must be an http or https URL.`);
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/admin\/v0$/, '');
  return `${base}/admin/v0`;
}

/** The sentence of an error body (`{"error": "..."}` in both products), or the start of the text. */
function reasonOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || 'no body';
}

/** Network failures no retry heals while the server has never answered, with what to check. */
const unreachable: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there: check the host and port of --from',
  ENOTFOUND: 'no such host: check --from',
};

function codeOf(error: Error): string | undefined {
  const code: unknown = 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : null;
}

export function createRemote(options: RemoteOptions) {
  const root = adminRoot(options.from);
  const fetchImpl = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const backoff = (attempt: number) => Math.min(1000 * 2 ** attempt, MAX_WAIT_MS);
  // Until the server has answered once, a refused connection or an unknown host is a wrong --from, not an outage.
  let answered = false;

  /** The parsed JSON body of a successful GET of `path` (relative to `/admin/v0`). */
  async function get(path: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchImpl(`${root}${path}`, {
          headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        const cause =
          error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        const code = error instanceof Error && error.cause instanceof Error ? codeOf(error.cause) : undefined;
        const hint = answered || code === undefined ? undefined : unreachable[code];
        if (hint) throw new PullError(`GET ${root}${path} failed: ${cause} (${hint}); not retried.`);
        if (attempt >= options.retries) throw new PullError(`GET ${root}${path} failed: ${cause}`);
        options.onRetry?.(cause, backoff(attempt));
        await sleep(backoff(attempt));
        continue;
      }
      answered = true;
      if (response.ok) {
        try {
          return await response.json();
        } catch {
          throw new PullError(
            `GET ${root}${path} answered ${response.status} with a body that is not JSON.`,
            response.status,
          );
        }
      }
      const reason = reasonOf(await response.text());
      if ((response.status === 429 || response.status >= 500) && attempt < options.retries) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt);
        options.onRetry?.(`${response.status} ${reason}`, wait);
        await sleep(wait);
        continue;
      }
      const hint =
        response.status === 401 || response.status === 403
          ? '; check --token'
          : response.status === 404
            ? `; check --from: is ${root} the API's address?`
            : '';
      throw new PullError(
        `GET ${root}${path} answered ${response.status}: ${hint ? reason.replace(/\.$/, '') : reason}${hint}`,
        response.status,
      );
    }
  }

  return { root, get };
}
export type Remote = ReturnType<typeof createRemote>;
