// The console's page helpers: times as pages show them, and the month view's days (UTC, earliest first).
import { describe, expect, it } from 'vitest';
import { monthGrid, parseMonth } from '../../src/console/month.js';
import { when } from '../../src/console/render.js';

describe('when', () => {
  it('shows a time to the minute with its offset, UTC for the store’s times', () => {
    expect(when('2026-03-07T09:00:00+01:00')).toBe('2026-03-07 09:00 +01:00');
    expect(when('2026-03-07T09:30:15-04:00')).toBe('2026-03-07 09:30 -04:00');
    expect(when('2026-03-10 12:00:00.000000')).toBe('2026-03-10 12:00 UTC');
    expect(when('2026-03-10 12:00:00.000000+00')).toBe('2026-03-10 12:00 UTC');
    expect(when('2026-03-10T12:00:00Z')).toBe('2026-03-10 12:00 UTC');
    expect(when('2026-03-10T12:00:00+00:00')).toBe('2026-03-10 12:00 UTC');
    expect(when('never')).toBe('never');
    expect(when(null)).toBe('');
  });
});

describe('monthGrid', () => {
  const month = parseMonth('2026-03', 0);
  const days = (grid: ReturnType<typeof monthGrid>) =>
    Object.fromEntries(
      grid
        .flat()
        .filter((d) => d.events.length > 0)
        .map((d) => [`${d.weekday} ${d.date}`, d.events.map((e) => `${e.time ?? '(continued)'} ${e.title}`)]),
    );

  it('puts each event on the UTC days it covers, earliest first, its time in UTC on its first day only', () => {
    const grid = monthGrid(month, [
      { id: 'a', title: 'Coffee', start_date: '2026-03-07T14:30:00+00:00', end_date: null },
      { id: 'b', title: 'Sprint', start_date: '2026-03-08T09:00:00+11:00', end_date: '2026-03-09T17:00:00+11:00' },
      { id: 'c', title: 'Week', start_date: '2026-03-07T09:00:00+01:00', end_date: '2026-03-07T17:00:00+01:00' },
    ]);
    expect(days(grid)).toEqual({
      'Sat 2026-03-07': ['08:00 Week', '14:30 Coffee', '22:00 Sprint'],
      'Sun 2026-03-08': ['(continued) Sprint'],
      'Mon 2026-03-09': ['(continued) Sprint'],
    });
    // Weeks from Monday: 2026-03-01 is a Sunday, so the grid opens on Monday 23 February.
    expect(grid[0]?.[0]).toMatchObject({ date: '2026-02-23', weekday: 'Mon', inMonth: false, events: [] });
  });
});
