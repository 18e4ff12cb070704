// SIGINT and SIGTERM, the signals that stop a server, listened to for the whole life of the process. Node puts back a
// signal's default (end the process at once: nothing drained, buffered log lines lost) whenever its last listener
// goes, as close-with-grace's one-time listener does before it adds the next; and under `npm start` a Ctrl-C comes
// twice, from the terminal and as npm hands it on, so the copy could land in that gap (seen in 7 of 87 starts).

export type StopSignal = 'SIGINT' | 'SIGTERM';

export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** A signal repeated within this time is the same stop handed on (npm passes on the Ctrl-C its terminal sent). */
export const ECHO_MS = 1_000;

export interface StopHandlers {
  /** The first stop signal. */
  first(signal: StopSignal): void;
  /** A stop signal later than ECHO_MS after the first: someone insists. */
  again(signal: StopSignal): void;
}

let handlers: StopHandlers | null = null;
let firstAt: number | null = null;
let now: () => number = Date.now;

function onSignal(signal: StopSignal): void {
  if (handlers === null) return;
  if (firstAt === null) {
    firstAt = now();
    handlers.first(signal);
  } else if (now() - firstAt > ECHO_MS) handlers.again(signal);
}

/**
 * Hands the stop signals to `stop` from now on (a later call replaces it, as a second server in one process does);
 * the process's listeners stay until `release` (for a server that failed to start: the signals' defaults come back).
 */
export function holdStopSignals(stop: StopHandlers, clock: () => number = Date.now): { release(): void } {
  if (handlers === null) for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  handlers = stop;
  firstAt = null;
  now = clock;
  return {
    release() {
      if (handlers !== stop) return;
      for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
      handlers = null;
    },
  };
}
