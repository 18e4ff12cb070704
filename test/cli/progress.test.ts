// Progress of long work: a cli-progress bar on a terminal, a line every few seconds elsewhere, nothing with --quiet.
import { describe, expect, it } from 'vitest';
import { createProgress, formatSeconds, progressLine } from '../../src/cli/progress.js';

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

  it('formats what is left in seconds, minutes or hours', () => {
    expect([formatSeconds(42.4), formatSeconds(125), formatSeconds(3 * 3600 + 120), formatSeconds(Number.NaN)]).toEqual(
      ['42 s', '2 min 5 s', '3 h 2 min', '?'],
    );
    expect(progressLine('demo', { records: 1234.4, rate: 99.6, fraction: null, eta: null, phase: '' })).toBe(
      'demo: 1,234 records, 100 records/s',
    );
  });
});
