// `hearth calendar import`: an iCalendar file or address into a community through the one write path — events
// keyed by UID (+ RECURRENCE-ID), series expanded with EXDATE, zones from VTIMEZONE or by IANA name, all-day
// DTEND exclusive, STATUS:CANCELLED removing — a second import updating, a malformed file named by its line with
// nothing kept; and the round trip of a Hearth feed into another community.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ada, feeds, grace } from '../../fixtures/community.js';
import { readFeed } from '../../src/ical/ical-source.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { runCli } from '../helpers/run-cli.js';

let t: TestApp;
let dir: string;
let reader: string;
let server: Server;
let baseUrl: string;

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ics = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

const customEastern = [
  'BEGIN:VTIMEZONE',
  'TZID:Custom Eastern',
  'BEGIN:STANDARD',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

const feed = ics(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Test//Test//EN',
  'X-WR-TIMEZONE:Europe/Berlin',
  ...customEastern,
  'BEGIN:VEVENT',
  'UID:weekly-1@example.com',
  'DTSTART;TZID=Custom Eastern:20260302T100000',
  'DTEND;TZID=Custom Eastern:20260302T110000',
  'RRULE:FREQ=WEEKLY;COUNT=5',
  'EXDATE;TZID=Custom Eastern:20260316T100000',
  'SUMMARY:Weekly standup',
  'LOCATION:Room 1',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly-1@example.com',
  'RECURRENCE-ID;TZID=Custom Eastern:20260309T100000',
  'DTSTART;TZID=Custom Eastern:20260309T120000',
  'DTEND;TZID=Custom Eastern:20260309T130000',
  'SUMMARY:Weekly standup (moved)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:allday-1@example.com',
  'DTSTART;VALUE=DATE:20260321',
  'DTEND;VALUE=DATE:20260323',
  'SUMMARY:Two-day retreat',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:named-1@example.com',
  'DTSTART;TZID=America/New_York:20261031T100000',
  'DTEND;TZID=America/New_York:20261102T100000',
  'SUMMARY:Across November',
  'DESCRIPTION:Line one\\nLine two\\, with a comma',
  'URL:https://example.com/nov',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:utc-1@example.com',
  'DTSTART:20260320T090000Z',
  'DTEND:20260320T103000Z',
  'SUMMARY:In UTC',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:floating-1@example.com',
  'DTSTART:20260325T180000',
  'DURATION:PT2H',
  'SUMMARY:Floating in Berlin',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:sydney-1@example.com',
  'DTSTART;TZID=Australia/Sydney:20260404T200000',
  'DTEND;TZID=Australia/Sydney:20260405T200000',
  'SUMMARY:Sydney across April',
  'END:VEVENT',
  'END:VCALENDAR',
);

/** [title, start_date, end_date, location, link, description text] as the JSON API answers them, start ascending. */
const expected = [
  ['Weekly standup', '2026-03-02T15:00:00+00:00', '2026-03-02T16:00:00+00:00', 'Room 1', null, null],
  ['Weekly standup (moved)', '2026-03-09T16:00:00+00:00', '2026-03-09T17:00:00+00:00', null, null, null],
  ['In UTC', '2026-03-20T09:00:00+00:00', '2026-03-20T10:30:00+00:00', null, null, null],
  ['Two-day retreat', '2026-03-21T00:00:00+01:00', '2026-03-23T00:00:00+01:00', null, null, null],
  ['Weekly standup', '2026-03-23T14:00:00+00:00', '2026-03-23T15:00:00+00:00', 'Room 1', null, null],
  ['Floating in Berlin', '2026-03-25T18:00:00+01:00', '2026-03-25T20:00:00+01:00', null, null, null],
  ['Weekly standup', '2026-03-30T14:00:00+00:00', '2026-03-30T15:00:00+00:00', 'Room 1', null, null],
  ['Sydney across April', '2026-04-04T20:00:00+11:00', '2026-04-05T20:00:00+10:00', null, null, null],
  [
    'Across November',
    '2026-10-31T10:00:00-04:00',
    '2026-11-02T10:00:00-05:00',
    null,
    'https://example.com/nov',
    'Line one\nLine two, with a comma',
  ],
];

const env = () => ({ DATABASE_URL: t.testStore.url });
const cli = (args: string[]) => runCli(args, env(), () => t.clock.now);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

type Row = (string | null)[];
async function eventsOf(token: string): Promise<{ ids: string[]; rows: Row[] }> {
  const res = await t.get('/admin/v0/calendar_events?per_page=100', token);
  const records = res.json().data.records as Record<string, unknown>[];
  return {
    ids: records.map((r) => String(r['id'])),
    rows: records.map((r) => {
      const blocks = r['description_chat_blocks'] as { elements: { elements: { text: string }[] }[] }[] | null;
      return [
        r['title'],
        r['start_date'],
        r['end_date'],
        r['location'],
        r['link'],
        blocks?.[0]?.elements[0]?.elements[0]?.text ?? null,
      ] as Row;
    }),
  };
}

const summary = (slug: string, records: number, created: number, updated: number, removed: number) =>
  new RegExp(
    `^Imported ${records} events into '${slug}': ${created} created, ${updated} updated, ${removed} removed in \\d+\\.\\d s\\.$`,
  );

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  dir = mkdtempSync(join(tmpdir(), 'hearth-ical-'));
  const dest = await t.community('dest');
  reader = await t.token(dest, ['read']);
  server = createServer((request, response) => {
    if (request.url === '/never') return; // no answer at all
    if (request.url === '/feed.ics?key=secret') {
      response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
      return response.end(feed);
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('hearth calendar import', () => {
  it('imports singles, series (EXDATE, an override), all-day, floating and named zones as the JSON API shows', async () => {
    const run = await cli(['calendar', 'import', '--community', 'dest', '--quiet', file('feed.ics', feed)]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(summary('dest', 9, 9, 0, 0));
    expect((await eventsOf(reader)).rows).toEqual(expected);
  });

  it('updates on a second import (from an address this time), never duplicating; CANCELLED removes', async () => {
    const before = await eventsOf(reader);
    const again = await cli(['calendar', 'import', '--community', 'dest', '--quiet', `${baseUrl}/feed.ics?key=secret`]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(summary('dest', 9, 0, 9, 0));
    expect(await eventsOf(reader)).toEqual(before);
    const history = await cli(['import', 'history', '--community', 'dest', '--json']);
    const runs = JSON.parse(history.out) as { source: string; origin: string; outcome: string }[];
    expect(runs.map((r) => [r.source, r.origin, r.outcome])).toContainEqual([
      'ical',
      `${baseUrl}/feed.ics`,
      'completed',
    ]);
    const cancelled = feed
      .replace('SUMMARY:In UTC\r\n', 'SUMMARY:In UTC\r\nSTATUS:CANCELLED\r\n')
      .replace('SUMMARY:Weekly standup (moved)\r\n', 'SUMMARY:Weekly standup (moved)\r\nSTATUS:CANCELLED\r\n');
    const removed = await cli(['calendar', 'import', '--community', 'dest', '--quiet', file('cancel.ics', cancelled)]);
    expect(removed.out).toMatch(summary('dest', 9, 0, 7, 2));
    const after = await eventsOf(reader);
    expect(after.rows).toEqual(expected.filter((row) => row[0] !== 'In UTC' && row[0] !== 'Weekly standup (moved)'));
    expect(after.ids).toEqual(before.ids.filter((_, i) => i !== 1 && i !== 2));
  });

  it('expands a series without an end over the window only: 90 days back, 365 days ahead of the import', async () => {
    const window = await t.community('window');
    const endless = ics(
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//Test//EN',
      'BEGIN:VEVENT',
      'UID:endless-1@example.com',
      'DTSTART:20250106T100000Z',
      'DTEND:20250106T110000Z',
      'RRULE:FREQ=WEEKLY',
      'SUMMARY:Every Monday',
      'END:VEVENT',
      'END:VCALENDAR',
    );
    const run = await cli(['calendar', 'import', '--community', 'window', '--quiet', file('endless.ics', endless)]);
    expect(run.out).toMatch(summary('window', 65, 65, 0, 0));
    const { rows } = await eventsOf(await t.token(window, ['read']));
    // From 2025-12-10T12:00Z (the first Monday after: the 15th) to 2027-03-10T12:00Z (the last Monday before: the 8th).
    expect([rows.length, rows[0]?.[1], rows.at(-1)?.[1]]).toEqual([
      65,
      '2025-12-15T10:00:00+00:00',
      '2027-03-08T10:00:00+00:00',
    ]);
  });

  /** [case, file, the text on the line named, the message after the line]. */
  const malformed: [string, string, string, string][] = [
    [
      'a line without a colon',
      feed.replace('SUMMARY:In UTC', 'garbage line'),
      'garbage line',
      'invalid line (no token ";" or ":") "garbage line"',
    ],
    [
      'an unended component',
      feed.replace('SUMMARY:Sydney across April\r\nEND:VEVENT\r\n', 'SUMMARY:Sydney across April\r\n'),
      'END:VCALENDAR',
      'END:VCALENDAR does not close BEGIN:VEVENT',
    ],
    [
      'a bad date',
      feed.replace('DTSTART:20260320T090000Z', 'DTSTART:2026XX20T090000Z'),
      'DTSTART:2026XX20',
      'DTSTART: Could not extract integer from "XX"',
    ],
    [
      'an unknown zone',
      feed.replace('DTSTART;TZID=Australia/Sydney', 'DTSTART;TZID=Mars/Olympus'),
      'Mars/Olympus',
      "unknown time zone 'Mars/Olympus': no VTIMEZONE defines it and it is no IANA name",
    ],
    [
      'a bad RRULE',
      feed.replace('RRULE:FREQ=WEEKLY;COUNT=5', 'RRULE:FREQ=BOGUS'),
      'FREQ=BOGUS',
      'invalid frequency "BOGUS" expected: "SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY"',
    ],
    [
      'DTEND before DTSTART',
      feed.replace('DTEND:20260320T103000Z', 'DTEND:20260320T080000Z'),
      'DTEND:20260320T080000Z',
      'DTEND is before DTSTART',
    ],
    [
      'a second VEVENT with one UID',
      feed.replace('UID:sydney-1@example.com', 'UID:utc-1@example.com'),
      'SUMMARY:Sydney across April',
      "a second VEVENT with UID 'utc-1@example.com'",
    ],
  ];
  it.each(malformed)('refuses %s naming the line, keeping nothing', async (_, text, marker, message) => {
    const before = await eventsOf(reader);
    // A valid new event ahead of the bad line is not kept either.
    const bad = text.replace(
      'BEGIN:VEVENT\r\nUID:weekly-1@example.com\r\nDTSTART',
      'BEGIN:VEVENT\r\nUID:new-1@example.com\r\nDTSTART:20260401T100000Z\r\nSUMMARY:New\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:weekly-1@example.com\r\nDTSTART',
    );
    const lines = bad.split('\r\n');
    // The line of the marker; a VEVENT-wide problem names the VEVENT's BEGIN line above it.
    let line = lines.findIndex((l) => l.includes(marker)) + 1;
    if (message.startsWith('a second VEVENT')) line = lines.lastIndexOf('BEGIN:VEVENT', line - 1) + 1;
    const run = await cli(['calendar', 'import', '--community', 'dest', '--quiet', file('bad.ics', bad)]);
    expect(run).toEqual({
      code: 1,
      out: '',
      err: `hearth: Import failed, nothing was kept: bad.ics:${line}: ${message}`,
    });
    expect(await eventsOf(reader)).toEqual(before);
  });

  it('refuses a file that is no calendar at all', async () => {
    const run = await cli(['calendar', 'import', '--community', 'dest', file('bad.ics', 'hello\r\n')]);
    expect(run.err).toBe(
      'hearth: Import failed, nothing was kept: bad.ics:1: invalid line (no token ";" or ":") "hello"',
    );
    const empty = await cli(['calendar', 'import', '--community', 'dest', file('empty.ics', '')]);
    expect(empty.err).toBe(
      'hearth: Import failed, nothing was kept: empty.ics:1: the file is empty; expected BEGIN:VCALENDAR',
    );
  });

  it('reads addresses with a deadline and a size bound, http(s) only', async () => {
    const port = new URL(baseUrl).port;
    await expect(readFeed(`${baseUrl}/never`, { timeoutMs: 200 })).rejects.toThrow(
      `Cannot fetch 127.0.0.1:${port}: no answer within 0.2 s.`,
    );
    await expect(readFeed(`${baseUrl}/feed.ics?key=secret`, { maxBytes: 100 })).rejects.toThrow(
      `The feed at 127.0.0.1:${port} is larger than 100 bytes.`,
    );
    await expect(readFeed(`${baseUrl}/missing.ics`)).rejects.toThrow(
      `Cannot fetch 127.0.0.1:${port}: it answered 404.`,
    );
    const ftp = await cli(['calendar', 'import', '--community', 'dest', 'ftp://example.com/feed.ics']);
    expect(ftp).toMatchObject({
      code: 1,
      err: "hearth: Import failed, nothing was kept: Cannot import 'ftp://example.com/feed.ics': only http and https addresses (and files) are read.",
    });
    const missing = await cli(['calendar', 'import', '--community', 'dest', join(dir, 'nope.ics')]);
    expect(missing.err).toBe(
      `hearth: Import failed, nothing was kept: Cannot import '${join(dir, 'nope.ics')}': no such file.`,
    );
  });
});

describe('round trip', () => {
  it("a community's feed imported into another gives the same events, times, zones, places, links and texts", async () => {
    const source = await t.community('source');
    await t.importRecords(source, [...feeds, ada, grace]);
    const writer = await t.token(source, ['read', 'events:write']);
    const bodies = [
      ['NY spring', '2026-03-07T10:00:00-05:00', '2026-03-09T10:00:00-04:00', 'America/New_York'],
      ['NY autumn', '2026-10-31T10:00:00-04:00', '2026-11-02T10:00:00-05:00', 'America/New_York'],
      ['Berlin night', '2026-03-29T01:00:00+01:00', '2026-03-29T04:00:00+02:00', 'Europe/Berlin'],
      ['Sydney April', '2026-04-04T20:00:00+11:00', '2026-04-05T20:00:00+10:00', 'Australia/Sydney'],
      ['In UTC', '2026-03-20T09:00:00+00:00', '2026-03-20T10:30:00+00:00', null],
      ['All day', '2026-03-21T00:00:00+01:00', '2026-03-23T00:00:00+01:00', 'Europe/Berlin'],
    ] as const;
    for (const [title, start, end, zone] of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/admin/v0/calendar_events',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          title,
          start_date: start,
          end_date: end,
          ...(zone ? { timezone: zone } : {}),
          hosts: ['ada@example.com'],
          description: { text: `About ${title};\nsecond line, with commas` },
          location: `${title} hall`,
          link: `https://example.com/${encodeURIComponent(title)}`,
          publish_to_site: true,
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const sourceReader = await t.token(source, ['read']);
    const ics = await t.get('/admin/v0/calendar_events.ics', sourceReader);
    await t.community('copy');
    const run = await cli(['calendar', 'import', '--community', 'copy', '--quiet', file('source.ics', ics.body)]);
    expect(run.out).toMatch(summary('copy', 6, 6, 0, 0));
    const copyReader = await t.token(
      (
        await t.testStore.store.db
          .selectFrom('communities')
          .select('id')
          .where('slug', '=', 'copy')
          .executeTakeFirstOrThrow()
      ).id,
      ['read'],
    );
    const original = await eventsOf(sourceReader);
    const copied = await eventsOf(copyReader);
    expect(copied.rows).toEqual(original.rows);
    const byStart = [...bodies].sort((a, b) => Date.parse(a[1]) - Date.parse(b[1]));
    expect(copied.rows.map((r) => [r[0], r[1], r[2]])).toEqual(
      byStart.map(([title, start, end]) => [title, start, end]),
    );
    const zones = await t.testStore.store.db
      .selectFrom('calendar_events')
      .innerJoin('communities', 'communities.id', 'calendar_events.community_id')
      .select(['communities.slug', 'calendar_events.title', 'calendar_events.time_zone'])
      .where('communities.slug', 'in', ['source', 'copy'])
      .orderBy('calendar_events.title')
      .orderBy('communities.slug')
      .execute();
    const bySlug = (slug: string) => zones.filter((z) => z.slug === slug).map((z) => [z.title, z.time_zone]);
    expect(bySlug('copy')).toEqual(bySlug('source'));
  });
});
