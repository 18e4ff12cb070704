// The month view's calendar: a month chosen by `YYYY-MM` (UTC), its weeks from Monday, each day with its events.
import { AppError } from '../errors.js';

export interface Month {
  /** `2026-03` */
  value: string;
  label: string;
  previous: string;
  next: string;
  from: number;
  to: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const monthValue = (year: number, month: number) => {
  const d = new Date(Date.UTC(year, month, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

export function parseMonth(text: string | undefined, now: number): Month {
  let year: number;
  let month: number;
  if (text === undefined || text === '') {
    const today = new Date(now);
    year = today.getUTCFullYear();
    month = today.getUTCMonth();
  } else {
    const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
    if (!match)
      throw new AppError('invalid_parameter', "Invalid parameter 'month': expected YYYY-MM, such as 2026-03.", [
        { field: 'month', message: 'must be YYYY-MM' },
      ]);
    year = Number(match[1]);
    month = Number(match[2]) - 1;
  }
  const from = Date.UTC(year, month, 1);
  return {
    value: monthValue(year, month),
    label: new Date(from).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    previous: monthValue(year, month - 1),
    next: monthValue(year, month + 1),
    from,
    to: Date.UTC(year, month + 1, 1),
  };
}

export interface Day {
  date: string;
  day: number;
  inMonth: boolean;
  /** Mon…Sun, for narrow pages where the column headings are hidden. */
  weekday: string;
  /** Earliest first; `time` is the start in UTC on the day it starts, null on the days an event continues into. */
  events: { id: string; title: string; time: string | null }[];
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Weeks of days (Monday first) covering the month; an event is listed on each UTC day it overlaps within the month. */
export function monthGrid(month: Month, records: Record<string, unknown>[]): Day[][] {
  const dayMs = 86_400_000;
  const first = new Date(month.from);
  const start = month.from - ((first.getUTCDay() + 6) % 7) * dayMs;
  const weeks: Day[][] = [];
  for (let at = start; at < month.to; at += 7 * dayMs) {
    const week: Day[] = [];
    for (let d = 0; d < 7; d++) {
      const dayStart = at + d * dayMs;
      const date = new Date(dayStart).toISOString().slice(0, 10);
      const inMonth = dayStart >= month.from && dayStart < month.to;
      const events = inMonth
        ? records
            .map((r) => {
              const s = Date.parse(String(r['start_date']));
              const e = r['end_date'] ? Date.parse(String(r['end_date'])) : s;
              return { r, s, e };
            })
            .filter(({ s, e }) => s < dayStart + dayMs && (e > dayStart || s >= dayStart))
            .sort((a, b) => a.s - b.s)
            .map(({ r, s }) => ({
              id: String(r['id']),
              title: String(r['title']),
              // The grid's days are UTC days: the time shown is UTC too, so that an event sits on the day it names.
              time: s >= dayStart ? new Date(s).toISOString().slice(11, 16) : null,
            }))
        : [];
      week.push({
        date,
        day: new Date(dayStart).getUTCDate(),
        weekday: WEEKDAYS[new Date(dayStart).getUTCDay()] ?? '',
        inMonth,
        events,
      });
    }
    weeks.push(week);
  }
  return weeks;
}
