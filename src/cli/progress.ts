// Progress of long work (import, demo): a bar on a terminal (cli-progress), one line every few seconds otherwise, nothing with --quiet.
import { SingleBar } from 'cli-progress';
import { phasedFraction, type Phases } from './progress-phases.js';

export interface ProgressStream {
  write(text: string): boolean;
  isTTY?: boolean;
}

export interface ProgressOptions {
  /** Names the work at the start of each line: `import`, `demo`. */
  label: string;
  quiet: boolean;
  /** Where progress goes (stderr: stdout keeps the command's result). */
  stream: ProgressStream;
  /** Seconds between lines when the stream is not a terminal. */
  everySeconds?: number;
  /** Milliseconds to measure elapsed time with (rate, time left, line spacing); not a date, so not the app's clock. */
  clock?: () => number;
  /**
   * The work's phases in order with their shares of its time: `update`'s fraction is then that of its phase alone,
   * and the share of the whole done, so the time left, counts the phases still to come.
   */
  phases?: Phases;
}

export interface Progress {
  /**
   * `records` done so far; `fraction` (0 to 1) done of the whole, or with `phases` of `phase` alone, when known;
   * `phase` says what is happening now.
   */
  update(records: number, fraction?: number | null, phase?: string): void;
  /** The work ended well: the bar drawn full (`done`), then stopped. */
  finish(records: number): void;
  /** Stops drawing, as the work left it (an error, an interruption). */
  stop(): void;
}

const BAR_WIDTH = 24;

const count = (n: number) => Math.round(n).toLocaleString('en-US');

export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

interface Snapshot {
  records: number;
  rate: number;
  fraction: number | null;
  eta: number | null;
  phase: string;
}

/** One line of progress: `import: 120,000 records, 9,800 records/s, 34%, about 42 s left`. */
export function progressLine(label: string, s: Snapshot): string {
  const parts = [`${label}: ${count(s.records)} records`, `${count(s.rate)} records/s`];
  if (s.fraction !== null) parts.push(`${Math.floor(s.fraction * 100)}%`);
  if (s.eta !== null) parts.push(`about ${formatSeconds(s.eta)} left`);
  if (s.phase) parts.push(s.phase);
  return parts.join(', ');
}

export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { update: () => {}, finish: () => {}, stop: () => {} };
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const whole = options.phases ? phasedFraction(options.phases) : null;
  const snapshot = (records: number, done: number | null, phase: string, finished = false): Snapshot => {
    const seconds = Math.max(0.001, (clock() - started) / 1000);
    const fraction = finished ? 1 : whole ? whole(phase, done, seconds) : done;
    const eta = fraction !== null && fraction > 0 && fraction < 1 ? (seconds * (1 - fraction)) / fraction : null;
    return { records, rate: records / seconds, fraction, eta, phase };
  };

  if (options.stream.isTTY === true) {
    const bar = new SingleBar({
      stream: options.stream as NodeJS.WritableStream,
      hideCursor: true,
      format: (_options, params, payload: { line?: string; fraction?: number | null }) => {
        const line = payload.line ?? '';
        if (payload.fraction === null || payload.fraction === undefined) return line;
        const done = Math.round(params.progress * BAR_WIDTH);
        return `[${'█'.repeat(done)}${'░'.repeat(BAR_WIDTH - done)}] ${line}`;
      },
    });
    bar.start(1, 0, { line: `${options.label}: starting`, fraction: null });
    return {
      update(records, fraction = null, phase = '') {
        const s = snapshot(records, fraction, phase);
        bar.update(s.fraction ?? 0, { line: progressLine(options.label, s), fraction: s.fraction });
      },
      finish(records) {
        bar.update(1, { line: progressLine(options.label, snapshot(records, 1, 'done', true)), fraction: 1 });
        bar.stop();
      },
      stop: () => bar.stop(),
    };
  }

  // Not a terminal (a log file, CI): a line every few seconds, written from update() itself. cli-progress's own
  // non-terminal mode draws from a timer, and a timer does not fire while SQLite work keeps the event loop busy.
  const everyMs = (options.everySeconds ?? 5) * 1000;
  let last = started;
  return {
    update(records, fraction = null, phase = '') {
      const now = clock();
      if (now - last < everyMs) return;
      last = now;
      options.stream.write(`${progressLine(options.label, snapshot(records, fraction, phase))}\n`);
    },
    // The command's own summary line follows.
    finish: () => {},
    stop: () => {},
  };
}
