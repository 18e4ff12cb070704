// Progress of long work: a cli-progress bar on a terminal, a line every few seconds elsewhere, nothing with --quiet;
// the time left of work in phases counts the phases still to come.
import { describe, expect, it } from 'vitest';
import { createProgress, formatSeconds, progressLine } from '../../src/cli/progress.js';
import type { Phases } from '../../src/cli/progress-phases.js';
import { importPhases, importShares } from '../../src/import/import-phases.js';

function sink(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, columns: 120, write: (text: string) => written.push(text) > 0 } };
}

describe('progress', () => {
  it('writes one line every few seconds when not on a terminal, with records, rate, share done and time left', () => {
    const { written, stream } = sink(false);
    const clock = { now: 1_000_000 };
    const progress = createProgress({ label: 'import', quiet: false, stream, everySeconds: 5, clock: () => clock.now });
    clock.now += 1000;
    progress.update(1000, 0.1, 'reading');
    expect(written).toEqual([]);
    clock.now += 4000;
    progress.update(50_000, 0.25, 'reading');
    clock.now += 1000;
    progress.update(60_000, 0.3, 'reading');
    clock.now += 4000;
    progress.update(100_000, null, 'writing');
    progress.stop();
    expect(written).toEqual([
      'import: 50,000 records, 10,000 records/s, 25%, about 15 s left, reading\n',
      'import: 100,000 records, 10,000 records/s, writing\n',
    ]);
  });

  it('draws a bar on a terminal and says nothing with --quiet', () => {
    const terminal = sink(true);
    const progress = createProgress({ label: 'demo', quiet: false, stream: terminal.stream });
    progress.update(2000, 0.5);
    progress.stop();
    const screen = terminal.written.join('');
    expect(screen).toContain('[████████████░░░░░░░░░░░░] demo: 2,000 records');
    expect(screen).toContain('50%');

    const quiet = sink(false);
    const silent = createProgress({ label: 'demo', quiet: true, stream: quiet.stream, everySeconds: 0 });
    silent.update(10, 0.5);
    silent.stop();
    expect(quiet.written).toEqual([]);
  });

  it('draws the bar full and done when the work ends well', () => {
    const terminal = sink(true);
    const clock = { now: 0 };
    const progress = createProgress({ label: 'demo', quiet: false, stream: terminal.stream, clock: () => clock.now });
    clock.now = 2000;
    progress.update(1000, 0.4, 'reading');
    progress.finish(3000);
    expect(terminal.written.join('')).toContain(
      '[████████████████████████] demo: 3,000 records, 1,500 records/s, 100%, done',
    );
  });

  it('formats what is left in seconds, minutes or hours', () => {
    expect([formatSeconds(42.4), formatSeconds(125), formatSeconds(3 * 3600 + 120), formatSeconds(Number.NaN)]).toEqual(
      ['42 s', '2 min 5 s', '3 h 2 min', '?'],
    );
    expect(progressLine('demo', { records: 1234.4, rate: 99.6, fraction: null, eta: null, phase: '' })).toBe(
      'demo: 1,234 records, 100 records/s',
    );
  });
});

describe('progress of work in phases', () => {
  /** Lines written at `seconds` after the start, each update drawn (everySeconds 0). */
  function phased(phases: Phases, steps: [seconds: number, records: number, done: number | null, phase: string][]) {
    const { written, stream } = sink(false);
    const clock = { now: 5_000_000 };
    const progress = createProgress({
      label: 'import',
      quiet: false,
      stream,
      everySeconds: 0,
      clock: () => clock.now,
      phases,
    });
    for (const [seconds, records, done, phase] of steps) {
      clock.now = 5_000_000 + seconds * 1000;
      progress.update(records, done, phase);
    }
    return written.map((line) => line.trimEnd());
  }

  const shares: Phases = [
    ['reading', 0.6],
    ['checking', 0.1],
    ['writing', 0.3],
  ];

  it('counts the phases to come in the share done and the time left, each untold one at the pace so far', () => {
    expect(
      phased(shares, [
        [10, 10_000, 0.5, 'reading'],
        [20, 20_000, 1, 'reading'],
        [20, 20_000, null, 'checking'],
        [21.5, 20_000, null, 'checking'],
        // Checking took 5 s where the pace so far gave it 3.3 s: the estimate starts again from where it is.
        [25, 20_000, null, 'writing'],
        [30, 20_000, null, 'writing'],
        // Writing runs late (its 10.7 s are spent): held at 95% of its share, never shown done before it is.
        [60, 20_000, null, 'writing'],
      ]),
    ).toEqual([
      'import: 10,000 records, 1,000 records/s, 30%, about 23 s left, reading',
      'import: 20,000 records, 1,000 records/s, 60%, about 13 s left, reading',
      'import: 20,000 records, 1,000 records/s, 60%, about 13 s left, checking',
      'import: 20,000 records, 930 records/s, 64%, about 12 s left, checking',
      'import: 20,000 records, 800 records/s, 70%, about 11 s left, writing',
      'import: 20,000 records, 667 records/s, 84%, about 6 s left, writing',
      'import: 20,000 records, 333 records/s, 98%, about 1 s left, writing',
    ]);
  });

  it('gives no estimate while the first phase cannot tell its progress (stdin), then one from its pace', () => {
    expect(
      phased(shares, [
        [10, 5000, null, 'reading'],
        [20, 10_000, null, 'checking'],
      ]),
    ).toEqual([
      'import: 5,000 records, 500 records/s, reading',
      'import: 10,000 records, 500 records/s, 60%, about 13 s left, checking',
    ]);
  });

  it("is not nearly done when an import's reading ends: the writes and the search load are still to come", () => {
    // The run of the report: 100,990 records read in 16.5 s, which once said "about 2 s left" and ended at 28.8 s.
    const readingEnds = (store: 'sqlite' | 'postgres') =>
      phased(importShares(store), [
        [8.25, 50_000, 0.5, 'reading'],
        [16.5, 100_990, 1, 'reading'],
        [16.5, 100_990, null, 'checking'],
      ]);
    expect(readingEnds('postgres')).toEqual([
      'import: 50,000 records, 6,061 records/s, 29%, about 20 s left, reading',
      'import: 100,990 records, 6,121 records/s, 59%, about 11 s left, reading',
      'import: 100,990 records, 6,121 records/s, 59%, about 11 s left, checking',
    ]);
    expect(readingEnds('sqlite')).toEqual([
      'import: 50,000 records, 6,061 records/s, 39%, about 13 s left, reading',
      'import: 100,990 records, 6,121 records/s, 78%, about 5 s left, reading',
      'import: 100,990 records, 6,121 records/s, 78%, about 5 s left, checking',
    ]);
  });

  it('knows every phase of an import, in order, their shares adding up to the whole', () => {
    for (const shares of [importShares('sqlite'), importShares('postgres')]) {
      expect(shares.map(([phase]) => phase)).toEqual([...importPhases]);
      expect(Math.round(shares.reduce((sum, [, share]) => sum + share, 0) * 1e9) / 1e9).toBe(1);
    }
    expect(importShares('sqlite', { dryRun: true })).toEqual([
      ['reading', 0.97],
      ['checking', 0.03],
    ]);
  });
});
