// In-process request counting in fixed windows: per request, one Map lookup and one counter.

/** How many requests a key made in its current window, and when that window ends (monotonic ms). */
export interface WindowCount {
  count: number;
  endsAt: number;
}

/**
 * A key's window starts at its first request, so a burst is never split by a boundary it did not choose.
 * Windows live at most `windowMs`, so the keys are kept in two generations that rotate every `windowMs`:
 * a live window is always in one of them, and forgetting the older one forgets only ended windows, with
 * no timer and no sweep.
 */
export class WindowCounter {
  #current = new Map<string, WindowCount>();
  #previous = new Map<string, WindowCount>();
  #rotateAt: number;

  constructor(
    private readonly windowMs: number,
    /** Monotonic milliseconds: windows measure elapsed time, not the date the app's clock tells. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#rotateAt = now() + windowMs;
  }

  /** Counts one request of `key`. */
  hit(key: string): WindowCount {
    const now = this.now();
    const window = this.#live(key, now);
    if (window) {
      window.count++;
      return window;
    }
    const fresh = { count: 1, endsAt: now + this.windowMs };
    this.#current.set(key, fresh);
    return fresh;
  }

  /** The current window of `key` without counting, if it has one. */
  peek(key: string): WindowCount | undefined {
    return this.#live(key, this.now());
  }

  /** Takes over a count kept elsewhere (the shared store, which is right while it answers), so that counting here continues from it. */
  adopt(key: string, count: number, remainingMs: number): WindowCount {
    const now = this.now();
    const endsAt = now + Math.max(1, Math.min(remainingMs, this.windowMs));
    const window = this.#live(key, now);
    if (window) {
      window.count = count;
      window.endsAt = endsAt;
      return window;
    }
    const adopted = { count, endsAt };
    this.#current.set(key, adopted);
    return adopted;
  }

  #live(key: string, now: number): WindowCount | undefined {
    if (now >= this.#rotateAt) {
      this.#previous = this.#current;
      this.#current = new Map();
      this.#rotateAt = now + this.windowMs;
    }
    const window = this.#current.get(key);
    if (window !== undefined) return window.endsAt > now ? window : undefined;
    const older = this.#previous.get(key);
    if (older === undefined || older.endsAt <= now) return undefined;
    this.#current.set(key, older);
    return older;
  }
}
