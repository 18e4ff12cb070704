// When and where demo events happen: time zones with their cities, events ongoing at "now",
// and events pinned around the 2026 daylight-saving changes whatever "now" is.
import { DAY, HOUR, MINUTE, localDate, zonedInstant } from './clock.js';
import type { Random } from './random.js';
import type { TagKey } from './world.js';

export interface Zone {
  name: string | null;
  /** Where in-person events in this zone take place; none means online only. */
  cities: readonly string[];
  weight: number;
}

export const ZONES: readonly Zone[] = [
  { name: 'America/Los_Angeles', cities: ['San Francisco', 'Los Angeles', 'Seattle', 'Vancouver'], weight: 20 },
  { name: 'America/New_York', cities: ['New York', 'Boston', 'Toronto'], weight: 20 },
  { name: 'Europe/Berlin', cities: ['Berlin', 'Amsterdam', 'Vienna', 'Prague', 'Zürich'], weight: 15 },
  { name: 'Europe/London', cities: ['London', 'Dublin', 'Lisbon'], weight: 6 },
  { name: 'Asia/Tokyo', cities: ['Tokyo'], weight: 8 },
  { name: 'Australia/Sydney', cities: ['Sydney', 'Melbourne'], weight: 8 },
  { name: 'Asia/Kolkata', cities: ['Bangalore'], weight: 4 },
  { name: 'UTC', cities: [], weight: 10 },
  { name: null, cities: [], weight: 4 },
];

/** Everything about an event's timing and place; the rest of the record is filled in around it. */
export interface EventSpec {
  title: string;
  start: number;
  end: number | null;
  timeZone: string | null;
  /** Null for an online event. */
  city: string | null;
  tags: TagKey[];
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** Started before now and ending after it, so "upcoming" and "past" both list them. */
export function ongoingEvents(now: number): EventSpec[] {
  const spanning = (before: number, after: number, step: number) => ({
    start: floorTo(now - before, step),
    end: ceilTo(now + after, step),
  });
  // Working days from 09:00 on the first local day to 17:00 on the last: the start is at most 09:00 of
  // the day `daysBefore` ago (before now) and the end at least 17:00 of the day `daysAfter` on (after now).
  const workingDays = (timeZone: string, daysBefore: number, daysAfter: number) => {
    const first = localDate(timeZone, now - daysBefore * DAY);
    const last = localDate(timeZone, now + daysAfter * DAY);
    return {
      start: zonedInstant(timeZone, first.year, first.month, first.day, 9),
      end: zonedInstant(timeZone, last.year, last.month, last.day, 17),
    };
  };
  return [
    {
      title: 'Community Hackathon 2026',
      ...spanning(26 * HOUR, 46 * HOUR, HOUR),
      timeZone: 'America/New_York',
      city: null,
      tags: ['engineering', 'members'],
    },
    {
      title: 'Open Co-working Week',
      ...workingDays('Europe/Berlin', 3, 4),
      timeZone: 'Europe/Berlin',
      city: 'Berlin',
      tags: ['meetup'],
    },
    {
      title: 'Live: Quarterly Community Town Hall',
      ...spanning(25 * MINUTE, 65 * MINUTE, 15 * MINUTE),
      timeZone: 'Asia/Tokyo',
      city: null,
      tags: ['webinar'],
    },
    {
      title: 'Design Sprint Week',
      ...workingDays('Australia/Sydney', 2, 2),
      timeZone: 'Australia/Sydney',
      city: 'Sydney',
      tags: ['design', 'workshop'],
    },
  ];
}

type WallClock = readonly [year: number, month: number, day: number, hour: number, minute: number];

const pinned = (
  title: string,
  timeZone: string,
  city: string | null,
  tags: TagKey[],
  start: WallClock,
  end: WallClock | null,
): EventSpec => ({
  title,
  start: zonedInstant(timeZone, ...start),
  end: end ? zonedInstant(timeZone, ...end) : null,
  timeZone,
  city,
  tags,
});

/** US clocks spring forward on 2026-03-08, EU clocks on 2026-03-29, Sydney's fall back on 2026-04-05. */
export function daylightSavingEvents(): EventSpec[] {
  return [
    pinned(
      'Spring-Forward Hack Night',
      'America/Los_Angeles',
      'San Francisco',
      ['engineering', 'meetup'],
      [2026, 3, 7, 20, 0],
      [2026, 3, 8, 6, 0],
    ),
    pinned(
      'Overnight Incident Drill',
      'America/New_York',
      null,
      ['engineering', 'members'],
      [2026, 3, 8, 0, 30],
      [2026, 3, 8, 4, 0],
    ),
    pinned(
      'Transatlantic Office Hours',
      'America/New_York',
      null,
      ['webinar', 'career'],
      [2026, 3, 20, 12, 0],
      [2026, 3, 20, 13, 0],
    ),
    pinned(
      'Sommerzeit Late-Night Jam',
      'Europe/Berlin',
      'Berlin',
      ['meetup'],
      [2026, 3, 28, 22, 0],
      [2026, 3, 29, 4, 0],
    ),
    pinned('Post-DST Breakfast Meetup', 'Europe/Berlin', 'Berlin', ['meetup', 'beginner'], [2026, 3, 29, 9, 30], null),
    pinned(
      'Stargazing Night (clocks go back)',
      'Australia/Sydney',
      'Sydney',
      ['meetup'],
      [2026, 4, 4, 22, 0],
      [2026, 4, 5, 4, 0],
    ),
  ];
}

/** Every zone once (so that even a small demo shows them all), then zones by weight. */
export function zoneFor(random: Random, index: number): Zone {
  return ZONES[index] ?? random.weighted(ZONES.map((z) => [z, z.weight] as const));
}

export interface Timing {
  start: number;
  end: number | null;
  zone: Zone;
}

/**
 * A start at a sensible local hour on the day `dayOffset` days from now in `zone`,
 * lasting `hours` (or `days` whole working days when given).
 */
export function localTiming(
  random: Random,
  now: number,
  zone: Zone,
  dayOffset: number,
  hours: number,
  days = 0,
): Timing {
  const { year, month, day } = localDate(zone.name, now + dayOffset * DAY);
  if (days > 0) {
    const start = zonedInstant(zone.name, year, month, day, 9);
    const last = localDate(zone.name, start + days * DAY);
    return { start, end: zonedInstant(zone.name, last.year, last.month, last.day, 17), zone };
  }
  const start = zonedInstant(zone.name, year, month, day, random.between(9, 19), random.chance(0.3) ? 30 : 0);
  return { start, end: start + hours * HOUR, zone };
}
