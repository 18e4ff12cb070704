// Request counts shared by every Hearth process through Redis, used as an accelerator only: each call has
// a short deadline, and while Redis is away each process counts on its own and reconnects in the background.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { WindowCounter, type WindowCount } from './window-counter.js';

/** Counts requests per key; `peek` reads only what this process knows, without any round trip. */
export interface RequestCounter {
  /** `sharedKey` names the key in Redis when `key` must not leave the process (a raw token). */
  hit(key: string, sharedKey?: () => string): WindowCount | Promise<WindowCount>;
  peek(key: string): WindowCount | undefined;
  /** `null` without Redis; `degraded` while counting falls back to this process. */
  readonly sharing: 'ok' | 'degraded' | null;
  /** Resolves once sharing works, or after `timeoutMs` (startup need not wait for Redis). */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface SharedCounterOptions {
  windowMs: number;
  /** Deadline of one Redis call; past it the request is counted in-process. */
  deadlineMs: number;
  /** While degraded, how often a live connection is asked whether Redis answers again. */
  probeMs: number;
  keyPrefix: string;
}

// 30 ms, within the 50 ms allowed: a request caught waiting when Redis stops still answers well under 50 ms,
// timers firing late on a busy machine included. Redis on the same network answers in about a millisecond.
const defaultSharedCounterOptions: SharedCounterOptions = {
  windowMs: 1000,
  deadlineMs: 30,
  probeMs: 500,
  keyPrefix: 'hearth:rl:',
};

/** Counts in-process only: one Hearth process, or no Redis configured. `now` is monotonic milliseconds. */
export function localCounter(windowMs: number, now?: () => number): RequestCounter {
  const local = new WindowCounter(windowMs, now);
  return {
    hit: (key) => local.hit(key),
    peek: (key) => local.peek(key),
    sharing: null,
    ready: async () => {},
    close: async () => {},
  };
}

// One round trip: count, start the window on the first request, answer the count and the time left.
const countScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type CountCommand = (key: string, windowMs: number) => Promise<[number, number]>;

export class SharedCounter implements RequestCounter {
  readonly #local: WindowCounter;
  readonly #count: CountCommand;
  #up = false;
  /** Whether the current outage was already logged: one warning per outage, not per request. */
  #warned = false;
  #closing = false;
  #probe: NodeJS.Timeout | null = null;
  #waiters: (() => void)[] = [];
  /** Requests waiting on Redis: when one call fails, the others stop waiting too and count in-process. */
  readonly #inFlight = new Set<() => void>();

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly options: SharedCounterOptions = defaultSharedCounterOptions,
  ) {
    this.#local = new WindowCounter(options.windowMs);
    redis.defineCommand('hearthCount', { numberOfKeys: 1, lua: countScript });
    // defineCommand adds the method at run time; ioredis's types cannot know it.
    this.#count = (redis as unknown as { hearthCount: CountCommand }).hearthCount.bind(redis);
    redis.on('ready', () => this.#recovered());
    // A listener of its own keeps ioredis from printing "Unhandled error event" lines; the state says the rest.
    redis.on('error', (error: Error) => this.#failed(error));
    redis.on('close', () => this.#failed(new Error('connection closed')));
  }

  /** A client that fails fast: no queue while disconnected, a deadline per call, reconnecting in the background. */
  static connect(
    url: string,
    log: FastifyBaseLogger,
    options: SharedCounterOptions = defaultSharedCounterOptions,
  ): SharedCounter {
    const redis = new Redis(url, {
      commandTimeout: options.deadlineMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    });
    return new SharedCounter(redis, log, options);
  }

  get sharing(): 'ok' | 'degraded' {
    return this.#up ? 'ok' : 'degraded';
  }

  hit(key: string, sharedKey?: () => string): WindowCount | Promise<WindowCount> {
    if (!this.#up) return this.#local.hit(key);
    return new Promise((resolve) => {
      let settled = false;
      const settle = (count: () => WindowCount) => {
        if (settled) return;
        settled = true;
        this.#inFlight.delete(fallBack);
        // A copy: the window object lives on and other answers for the key change it before this one is read.
        const { count: n, endsAt } = count();
        resolve({ count: n, endsAt });
      };
      const fallBack = () => settle(() => this.#local.hit(key));
      this.#inFlight.add(fallBack);
      this.#count(this.options.keyPrefix + (sharedKey ? sharedKey() : key), this.options.windowMs).then(
        ([count, ttl]) => settle(() => this.#local.adopt(key, count, ttl)),
        (error: unknown) => {
          this.#failed(error);
          fallBack();
        },
      );
    });
  }

  peek(key: string): WindowCount | undefined {
    return this.#local.peek(key);
  }

  ready(timeoutMs: number): Promise<void> {
    if (this.#up) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#stopProbe();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  #failed(error: unknown): void {
    if (this.#closing) return;
    this.#up = false;
    for (const fallBack of [...this.#inFlight]) fallBack();
    if (!this.#warned) {
      this.#warned = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn(
        { redis: 'degraded', reason },
        'Redis does not answer: rate limits are counted in each process until it is back',
      );
    }
    this.#startProbe();
  }

  #recovered(): void {
    if (this.#closing || this.#up) return;
    this.#up = true;
    this.#stopProbe();
    if (this.#warned) {
      this.#warned = false;
      this.log.info({ redis: 'ok' }, 'Redis answers again: rate limits are shared');
    }
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** A frozen Redis keeps its connection open, so no 'ready' will come: ask it now and then instead. */
  #startProbe(): void {
    if (this.#probe) return;
    this.#probe = setInterval(() => {
      if (this.redis.status !== 'ready') return;
      this.redis.ping().then(
        () => this.#recovered(),
        () => {},
      );
    }, this.options.probeMs);
    this.#probe.unref();
  }

  #stopProbe(): void {
    if (this.#probe) clearInterval(this.#probe);
    this.#probe = null;
  }
}
