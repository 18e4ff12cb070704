// Runs a background task (a scheduled Slack sync, a Luma pull) every so often inside `hearth serve`: never two runs
// at once, a failure logged and the next run still made, and `stop()` waits for a run in flight before it resolves.

export interface Repeating {
  /** Stops the timer; resolves once a run in flight has finished. */
  stop(): Promise<void>;
  /** Runs now (unless a run is in flight) and resolves when that run ends; the schedule goes on from then. */
  runNow(): Promise<void>;
}

export interface RepeatOptions {
  /** Milliseconds between the end of one run and the start of the next. */
  everyMs: number;
  /** Also run once at start (default: the first run waits `everyMs`). */
  runAtStart?: boolean;
  /** Told of a run that threw; the schedule goes on. */
  onError: (error: unknown) => void;
}

/** Repeats `task` every `everyMs` after the end of the previous run; the timer never holds the process open. */
export function repeatEvery(task: (signal: AbortSignal) => Promise<void>, options: RepeatOptions): Repeating {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void run(), options.everyMs);
    timer.unref();
  };

  const run = (): Promise<void> => {
    if (running) return running;
    if (timer) clearTimeout(timer);
    timer = null;
    running = (async () => {
      try {
        await task(abort.signal);
      } catch (error) {
        if (!abort.signal.aborted) options.onError(error);
      } finally {
        running = null;
        schedule();
      }
    })();
    return running;
  };

  if (options.runAtStart) void run();
  else schedule();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort.abort();
      await running;
    },
    runNow: () => (stopped ? Promise.resolve() : run()),
  };
}
