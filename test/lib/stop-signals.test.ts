// The stop signals are held for the process's life: their listener never goes while a stop runs, a copy within
// ECHO_MS is the same stop, a later one insists, and a release gives the signals back.
import { describe, expect, it } from 'vitest';
import { ECHO_MS, holdStopSignals, STOP_SIGNALS } from '../../src/lib/stop-signals.js';

const before = Object.fromEntries(STOP_SIGNALS.map((s) => [s, process.listeners(s)]));

describe('stop signals', () => {
  it('hands the first to `first`, an echo to nobody and a later one to `again`, listening throughout', () => {
    let time = 1_000;
    const seen: string[] = [];
    const listening = () => STOP_SIGNALS.map((s) => process.listenerCount(s) - (before[s]?.length ?? 0));
    const held = holdStopSignals(
      {
        first: (signal) => seen.push(`first ${signal} listening ${listening().join(',')}`),
        again: (signal) => seen.push(`again ${signal}`),
      },
      () => time,
    );
    process.emit('SIGINT', 'SIGINT');
    time += ECHO_MS;
    process.emit('SIGINT', 'SIGINT');
    time += 1;
    process.emit('SIGTERM', 'SIGTERM');
    expect(seen).toEqual(['first SIGINT listening 1,1', 'again SIGTERM']);
    expect(listening()).toEqual([1, 1]);
    held.release();
  });

  it('adds its listeners once for a second server, and release gives the signals back', () => {
    const seen: string[] = [];
    holdStopSignals({ first: () => seen.push('one'), again: () => seen.push('one again') });
    const second = holdStopSignals({ first: () => seen.push('two'), again: () => seen.push('two again') });
    expect(STOP_SIGNALS.map((s) => process.listenerCount(s) - (before[s]?.length ?? 0))).toEqual([1, 1]);
    process.emit('SIGTERM', 'SIGTERM');
    expect(seen).toEqual(['two']);
    second.release();
    expect(STOP_SIGNALS.map((s) => process.listenerCount(s) - (before[s]?.length ?? 0))).toEqual([0, 0]);
  });
});
