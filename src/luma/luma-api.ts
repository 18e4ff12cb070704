// Reading Luma's public API with global fetch (Luma publishes no Node SDK): the `x-luma-api-key` header, a timeout
// per request, the calendar's events page by page (`has_more`/`next_cursor`), one event's admin view (its hosts),
// and 429s waited out after their Retry-After.

export class LumaError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'LumaError';
  }
}

export interface LumaClientOptions {
  /** The API's base URL (`https://public-api.luma.com`). */
  baseUrl: string;
  apiKey: string;
  /** Further attempts after a 429, a 5xx or a network failure. */
  retries?: number;
  timeoutMs?: number;
  /** Entries per page of the list (Luma caps it on its side). */
  pageSize?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told about each wait before a retry. */
  onRetry?: (reason: string, waitMs: number) => void;
  signal?: AbortSignal;
}

export interface LumaPage {
  entries: unknown[];
  hasMore: boolean;
  nextCursor: string | null;
}

const MAX_WAIT_MS = 60_000;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Seconds (or an HTTP date) to milliseconds, at most a minute; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.min(Math.max(0, date - now), MAX_WAIT_MS);
}

/** Luma's error bodies carry `message`; anything else is shown by its start. */
function reasonOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || 'no body';
}

export function createLumaClient(options: LumaClientOptions) {
  let root: string;
  try {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    root = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    throw new LumaError(`The Luma API URL '${options.baseUrl}' is not an http(s) URL.`);
  }
  const fetchImpl = options.fetch ?? fetch;
  const sleep = options.sleep ?? wait;
  const retries = options.retries ?? 5;
  const backoff = (attempt: number) => Math.min(1000 * 2 ** attempt, MAX_WAIT_MS);

  async function get(path: string, query: Record<string, string>): Promise<unknown> {
    const url = `${root}${path}?${new URLSearchParams(query).toString()}`;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
        response = await fetchImpl(url, {
          headers: { 'x-luma-api-key': options.apiKey, accept: 'application/json' },
          signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const cause =
          error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        if (attempt >= retries) throw new LumaError(`GET ${root}${path} failed: ${cause}`);
        options.onRetry?.(cause, backoff(attempt));
        await sleep(backoff(attempt), options.signal);
        continue;
      }
      if (response.ok) {
        try {
          return await response.json();
        } catch {
          throw new LumaError(`GET ${root}${path} answered ${response.status} with a body that is not JSON.`);
        }
      }
      const reason = reasonOf(await response.text());
      if ((response.status === 429 || response.status >= 500) && attempt < retries) {
        const ms = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt);
        options.onRetry?.(`${response.status} ${reason}`, ms);
        await sleep(ms, options.signal);
        continue;
      }
      const hint = response.status === 401 || response.status === 403 ? ' (check the Luma API key)' : '';
      throw new LumaError(`GET ${root}${path} answered ${response.status}: ${reason}${hint}`, response.status);
    }
  }

  return {
    root,
    /** One page of the calendar's events; `cursor` is the previous page's `next_cursor`. */
    async listEvents(cursor: string | null): Promise<LumaPage> {
      const query: Record<string, string> = { pagination_limit: String(options.pageSize ?? 50) };
      if (cursor !== null) query['pagination_cursor'] = cursor;
      const body = await get('/v1/calendars/events/list', query);
      const page = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (!Array.isArray(page['entries']))
        throw new LumaError(`GET ${root}/v1/calendars/events/list answered without an 'entries' array.`);
      return {
        entries: page['entries'],
        hasMore: page['has_more'] === true,
        nextCursor: typeof page['next_cursor'] === 'string' ? page['next_cursor'] : null,
      };
    },
    /** The admin view of one event: the only one that carries `hosts`. */
    getEvent: (eventId: string): Promise<unknown> => get('/v1/events/get', { event_id: eventId }),
  };
}
export type LumaClient = ReturnType<typeof createLumaClient>;
