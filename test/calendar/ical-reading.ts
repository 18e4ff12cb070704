// Test helpers: a calendar answer read back with ical.js (VTIMEZONEs registered), and with Debian's
// python3-icalendar, the second parser the feed must satisfy without a warning.
import { spawnSync } from 'node:child_process';
import ICAL from 'ical.js';

export interface ReadTime {
  /** The wall time as written (`2026-03-08T10:00:00`, or `2026-03-08` for a date). */
  wall: string;
  /** The TZID written with it, `UTC` for a `Z` time, null for a date. */
  tzid: string | null;
  epochMs: number;
}

export interface ReadEvent {
  uid: string;
  status: string;
  sequence: number;
  summary: string;
  description: string | null;
  location: string | null;
  url: string | null;
  start: ReadTime;
  end: ReadTime | null;
  lastModified: string;
  dtstamp: string;
}

function time(t: ICAL.Time): ReadTime {
  const tzid = t.isDate ? null : t.zone === ICAL.Timezone.utcTimezone ? 'UTC' : (t.zone?.tzid ?? null);
  return { wall: t.toString().replace(/Z$/, ''), tzid, epochMs: t.toUnixTime() * 1000 };
}

/** The VEVENTs of a calendar in document order, times placed by its own VTIMEZONEs. */
export function readCalendar(body: string): { name: string | null; zones: string[]; events: ReadEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(body));
  const zones = calendar.getAllSubcomponents('vtimezone');
  for (const zone of zones) ICAL.TimezoneService.register(zone);
  try {
    const events = calendar.getAllSubcomponents('vevent').map((c) => {
      const event = new ICAL.Event(c);
      const value = (name: string) => {
        const v = c.getFirstPropertyValue(name);
        return v === null || v === undefined ? null : String(v);
      };
      return {
        uid: event.uid,
        status: value('status') ?? '',
        sequence: Number(value('sequence')),
        summary: event.summary,
        description: value('description'),
        location: value('location'),
        url: value('url'),
        start: time(event.startDate),
        end: c.hasProperty('dtend') ? time(event.endDate) : null,
        lastModified: value('last-modified') ?? '',
        dtstamp: value('dtstamp') ?? '',
      };
    });
    return { name: value(calendar, 'name'), zones: zones.map((z) => String(z.getFirstPropertyValue('tzid'))), events };
  } finally {
    for (const zone of zones) ICAL.TimezoneService.remove(String(zone.getFirstPropertyValue('tzid')));
  }
}

const value = (c: ICAL.Component, name: string): string | null => {
  const v = c.getFirstPropertyValue(name);
  return v === null || v === undefined ? null : String(v);
};

/** A Python 3 that has Debian's python3-icalendar, or null (CI installs it: .ci/run). */
export function pythonWithIcalendar(): string | null {
  for (const python of ['/usr/bin/python3', 'python3']) {
    const probe = spawnSync(python, ['-c', 'import icalendar'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return null;
}

const PYTHON_CHECK = `
import json, sys, warnings
warnings.simplefilter('error')
import icalendar
calendar = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
problems = [[c.name, str(e)] for c in calendar.walk() for e in c.errors]
events = []
for e in calendar.walk('VEVENT'):
    start = e.decoded('DTSTART')
    end = e.decoded('DTEND') if 'DTEND' in e else None
    events.append({'uid': str(e['UID']), 'status': str(e['STATUS']), 'start': start.isoformat(),
                   'end': end.isoformat() if end is not None else None, 'summary': str(e['SUMMARY'])})
print(json.dumps({'problems': problems, 'events': events}))
`;

/** python3-icalendar's reading of a calendar: components' parse errors (any warning fails it) and the events' times. */
export function readWithPython(
  python: string,
  body: string,
): {
  problems: string[][];
  events: { uid: string; status: string; start: string; end: string | null; summary: string }[];
  stderr: string;
} {
  const run = spawnSync(python, ['-c', PYTHON_CHECK], { input: body, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3-icalendar refused the calendar:\n${run.stderr}`);
  return { ...JSON.parse(run.stdout), stderr: run.stderr };
}
