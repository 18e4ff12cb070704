// iCalendar out: the admin .ics (the list's filters) and subscribe URLs (public events only, a bounded past,
// tombstones), every event's times checked against the JSON API's, headers, 304, tenancy, revocation, rate limits,
// and Debian's python3-icalendar reading the same bytes without a warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedIds, feeds, ada, grace } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { runCli } from '../helpers/run-cli.js';
import { pythonWithIcalendar, readCalendar, readWithPython, type ReadEvent } from './ical-reading.js';

let t: TestApp;
let acme: string;
let other: string;
let writer: string;
let reader: string;
let otherWriter: string;
const ids: Record<string, string> = {};

const base = { hosts: ['ada@example.com'], description: { text: 'Talks and pizza' } };
/** name → body; the JSON API's start/end are the reference every DTSTART/DTEND is checked against. */
const bodies: Record<string, Record<string, unknown>> = {
  nyBeforeSpring: {
    title: 'New York before the spring change',
    start_date: '2026-03-07T10:00:00-05:00',
    end_date: '2026-03-07T12:00:00-05:00',
    timezone: 'America/New_York',
    publish_to_site: true,
    location: 'Brooklyn Public Library',
    link: 'https://example.com/events/ny1',
    published_to: [feedIds.events],
  },
  nyAfterSpring: {
    title: 'New York after the spring change',
    start_date: '2026-03-09T10:00:00-04:00',
    end_date: '2026-03-09T11:00:00-04:00',
    timezone: 'America/New_York',
    publish_to_site: true,
  },
  nyAcrossAutumn: {
    title: 'New York across the November change',
    start_date: '2026-10-31T10:00:00-04:00',
    end_date: '2026-11-02T10:00:00-05:00',
    timezone: 'America/New_York',
    publish_to_site: true,
  },
  berlin: {
    title: 'Berlin night of the change',
    start_date: '2026-03-29T01:00:00+01:00',
    end_date: '2026-03-29T04:00:00+02:00',
    timezone: 'Europe/Berlin',
    publish_to_site: true,
    description: { text: 'Line one\nLine two; with, commas' },
  },
  sydney: {
    title: 'Sydney across the April change',
    start_date: '2026-04-04T20:00:00+11:00',
    end_date: '2026-04-05T20:00:00+10:00',
    timezone: 'Australia/Sydney',
    publish_to_site: true,
  },
  utc: {
    title: 'An event in UTC',
    start_date: '2026-03-20T09:00:00Z',
    end_date: '2026-03-20T10:30:00Z',
    publish_to_site: true,
    description: { text: 'Write to ada@example.com or grace@example.com for a seat' },
  },
  allDay: {
    title: 'Two whole days in Berlin',
    start_date: '2026-03-21T00:00:00+01:00',
    end_date: '2026-03-23T00:00:00+01:00',
    timezone: 'Europe/Berlin',
    publish_to_site: true,
  },
  recentPast: {
    title: 'Ended ten days ago',
    start_date: '2026-02-28T18:00:00Z',
    end_date: '2026-02-28T20:00:00Z',
    publish_to_site: true,
  },
  oldPast: {
    title: 'Ended a hundred days ago',
    start_date: '2025-11-30T18:00:00Z',
    end_date: '2025-11-30T20:00:00Z',
    publish_to_site: true,
  },
  draft: {
    title: 'Secret draft plans',
    start_date: '2026-03-25T18:00:00Z',
    end_date: '2026-03-25T19:00:00Z',
    status: 'needs_approval',
    publish_to_site: true,
  },
  unlisted: {
    title: 'Unlisted staff dinner',
    start_date: '2026-03-26T18:00:00Z',
    end_date: '2026-03-26T19:00:00Z',
    is_unlisted: true,
    publish_to_site: true,
  },
  offSite: {
    title: 'Not on the site',
    start_date: '2026-03-27T18:00:00Z',
    end_date: '2026-03-27T19:00:00Z',
    publish_to_site: false,
  },
};
const publicNames = [
  'nyBeforeSpring',
  'nyAfterSpring',
  'nyAcrossAutumn',
  'berlin',
  'sydney',
  'utc',
  'allDay',
  'recentPast',
];

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const env = () => ({ DATABASE_URL: t.testStore.url, HOST: '127.0.0.1', PORT: '3000' });

async function subscribe(slug: string, extra: string[] = []): Promise<{ url: string; path: string }> {
  const run = await runCli(['calendar-feed', 'create', '--community', slug, ...extra], env());
  expect(run.code, run.err).toBe(0);
  const url = run.out.trim();
  return { url, path: new URL(url).pathname };
}

const publicGet = (path: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: path, headers });

const byTitle = (events: ReadEvent[]) => new Map(events.map((e) => [e.summary, e]));

const metricsToken = 'calendar-scrape-0123456789';
/** The answer cache's hits so far, from /metrics. */
async function cacheHits(): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  return Number(/^hearth_answer_cache_hits_total (\d+)$/m.exec(res.body)?.[1] ?? Number.NaN);
}

beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken } });
  acme = await t.community('acme');
  other = await t.community('other');
  await t.importRecords(acme, [...feeds, ada, grace]);
  await t.importRecords(other, [...feeds, ada, grace]);
  writer = await t.token(acme, ['read', 'events:write']);
  reader = await t.token(acme, ['read']);
  otherWriter = await t.token(other, ['read', 'events:write']);
  for (const [name, body] of Object.entries(bodies)) {
    const res = await send('POST', '/admin/v0/calendar_events', writer, { ...base, ...body });
    expect(res.statusCode, res.body).toBe(201);
    ids[name] = res.json().data.id;
  }
  const res = await send('POST', '/admin/v0/calendar_events', otherWriter, {
    ...base,
    title: 'Other community picnic',
    start_date: '2026-03-22T12:00:00Z',
    end_date: '2026-03-22T15:00:00Z',
    publish_to_site: true,
  });
  expect(res.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('GET /admin/v0/calendar_events.ics', () => {
  it('answers the published events as RFC 5545, each DTSTART/DTEND the JSON API start/end in the event zone', async () => {
    const res = await t.get('/admin/v0/calendar_events.ics', reader);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Hearth//Hearth calendar//EN\r\n')).toBe(
      true,
    );
    const calendar = readCalendar(res.body);
    expect(calendar.name).toBe('acme');
    expect(calendar.zones).toEqual(['America/New_York', 'Europe/Berlin', 'Australia/Sydney']);
    const titles = calendar.events.map((e) => e.summary);
    // Published events (drafts left out, as the list does by default), start ascending.
    expect(titles).toEqual([
      'Ended a hundred days ago',
      'Ended ten days ago',
      'New York before the spring change',
      'New York after the spring change',
      'An event in UTC',
      'Two whole days in Berlin',
      'Unlisted staff dinner',
      'Not on the site',
      'Berlin night of the change',
      'Sydney across the April change',
      'New York across the November change',
    ]);
    const list = await t.get('/admin/v0/calendar_events?per_page=100', reader);
    const json = new Map<string, Record<string, string | null>>(
      list.json().data.records.map((r: Record<string, string | null>) => [r['id'], r]),
    );
    expect(calendar.events).toHaveLength(json.size);
    for (const event of calendar.events) {
      const id = event.uid.split('@')[0] ?? '';
      expect(event.uid).toBe(`${id}@${acme}`);
      const record = json.get(id);
      if (!record) throw new Error(`no JSON record for ${event.uid}`);
      const name = Object.keys(ids).find((n) => ids[n] === id) ?? '';
      const zone = (bodies[name]?.['timezone'] as string | undefined) ?? null;
      expect(event.status).toBe('CONFIRMED');
      expect(event.summary).toBe(record['title']);
      expect(event.location).toBe(record['location']);
      expect(event.url).toBe(record['link']);
      expect(event.lastModified).toBe(
        new Date(`${String(record['updated_at']).replace(' ', 'T')}:00`).toISOString().replace('.000Z', 'Z'),
      );
      expect(event.dtstamp).toBe(event.lastModified);
      expect(event.start.epochMs).toBe(Date.parse(String(record['start_date'])));
      // The wall time in the event's zone is the JSON's local part, its TZID the zone (UTC where it has none).
      expect(event.start.wall).toBe(String(record['start_date']).slice(0, 19));
      expect(event.start.tzid).toBe(zone ?? 'UTC');
      if (record['end_date'] === null) expect(event.end).toBeNull();
      else {
        expect(event.end?.epochMs).toBe(Date.parse(String(record['end_date'])));
        expect(event.end?.wall).toBe(String(record['end_date']).slice(0, 19));
        expect(event.end?.tzid).toBe(zone ?? 'UTC');
      }
    }
    const berlin = byTitle(calendar.events).get('Berlin night of the change');
    expect(berlin?.description).toBe('Line one\nLine two; with, commas');
    expect(res.body).toContain(
      'DTSTART;TZID=Europe/Berlin:20260329T010000\r\nDTEND;TZID=Europe/Berlin:20260329T040000\r\n',
    );
    expect(res.body).toContain(
      'DTSTART;TZID=America/New_York:20261031T100000\r\nDTEND;TZID=America/New_York:20261102T100000\r\n',
    );
    expect(res.body).toContain('DTSTART:20260320T090000Z\r\nDTEND:20260320T103000Z\r\n');
    // A whole-day event stays two zoned midnights: a DATE has no zone.
    expect(res.body).toContain(
      'DTSTART;TZID=Europe/Berlin:20260321T000000\r\nDTEND;TZID=Europe/Berlin:20260323T000000\r\n',
    );
    // The admin route is the admin's own calendar: its texts are as written.
    expect(byTitle(calendar.events).get('An event in UTC')?.description).toBe(
      'Write to ada@example.com or grace@example.com for a seat',
    );
  });

  it('writes a calendar once per ETag while the answer cache keeps it, and again after a change', async () => {
    const path = '/admin/v0/calendar_events.ics?date_filter=2026-03-29';
    const first = await t.get(path, reader);
    const before = await cacheHits();
    const second = await t.get(path, reader);
    // The same bytes, from the cache: one hit more.
    expect([second.statusCode, second.body, second.headers['etag']]).toEqual([200, first.body, first.headers['etag']]);
    expect(await cacheHits()).toBe(before + 1);
    expect(readCalendar(second.body).events.map((e) => e.summary)).toEqual(['Berlin night of the change']);
    // A change: another ETag, written from the new rows.
    const renamed = await send('PATCH', `/admin/v0/calendar_events/${ids['berlin']}`, writer, {
      title: 'Renamed in Berlin',
    });
    expect(renamed.statusCode).toBe(200);
    const third = await t.get(path, reader);
    expect(third.headers['etag']).not.toBe(first.headers['etag']);
    expect(readCalendar(third.body).events.map((e) => e.summary)).toEqual(['Renamed in Berlin']);
    const back = await send('PATCH', `/admin/v0/calendar_events/${ids['berlin']}`, writer, {
      title: 'Berlin night of the change',
    });
    expect(back.statusCode).toBe(200);
  });

  it("takes the list's filters and answers 304 to its own ETag", async () => {
    const res = await t.get(`/admin/v0/calendar_events.ics?status=needs_approval`, reader);
    expect(readCalendar(res.body).events.map((e) => e.summary)).toEqual(['Secret draft plans']);
    const feed = await t.get(`/admin/v0/calendar_events.ics?feed_id=${feedIds.events}`, reader);
    expect(readCalendar(feed.body).events.map((e) => e.summary)).toEqual(['New York before the spring change']);
    expect(readCalendar(feed.body).name).toBe('acme: Events & Meetups');
    const day = await t.get('/admin/v0/calendar_events.ics?date_filter=2026-03-29', reader);
    expect(readCalendar(day.body).events.map((e) => e.summary)).toEqual(['Berlin night of the change']);
    const upcoming = await t.get(
      '/admin/v0/calendar_events.ics?time_filter=upcoming&published_to_site=true&is_unlisted=false',
      reader,
    );
    expect(readCalendar(upcoming.body).events).toHaveLength(5);
    const again = await t.get('/admin/v0/calendar_events.ics?status=needs_approval', reader, {
      'if-none-match': String(res.headers['etag']),
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['etag']).toBe(res.headers['etag']);
  });

  it('refuses a missing token, a bad filter and an archived feed in the error body', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/admin/v0/calendar_events.ics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ success: false, code: 'unauthorized' });
    const bad = await t.get('/admin/v0/calendar_events.ics?time_filter=soon', reader);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, code: 'invalid_parameter' });
    const badDay = await t.get('/admin/v0/calendar_events.ics?date_filter=tomorrow', reader);
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().code).toBe('invalid_parameter');
    const archived = await t.get(`/admin/v0/calendar_events.ics?feed_id=${feedIds.archived}`, reader);
    expect(archived.statusCode).toBe(404);
    expect(archived.json()).toMatchObject({
      success: false,
      code: 'not_found',
      error: `Feed '${feedIds.archived}' was not found.`,
    });
  });
});

describe('subscribe URLs', () => {
  it('hold published events on the site and not unlisted, a 90-day past, never a draft or an e-mail', async () => {
    const { url, path } = await subscribe('acme', ['--base-url', 'https://hearth.example.org/']);
    expect(url).toMatch(/^https:\/\/hearth\.example\.org\/calendar\/hcal_[A-Za-z0-9_-]{43}\.ics$/);
    const res = await publicGet(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(res.headers['ratelimit-limit']).toBe('10000');
    const calendar = readCalendar(res.body);
    expect(calendar.events.map((e) => e.summary).sort()).toEqual(publicNames.map((n) => bodies[n]?.['title']).sort());
    for (const word of ['Secret draft', 'Unlisted staff', 'Not on the site', 'hundred days', 'Other community'])
      expect(res.body).not.toContain(word);
    expect(res.body).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
    expect(byTitle(calendar.events).get('An event in UTC')?.description).toBe(
      'Write to [e-mail hidden] or [e-mail hidden] for a seat',
    );
    const again = await publicGet(path, { 'if-none-match': String(res.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, max-age=300');
  });

  it("of a feed hold that feed's events; one community's secret never shows another's events", async () => {
    const { path } = await subscribe('acme', ['--feed', feedIds.events]);
    const calendar = readCalendar((await publicGet(path)).body);
    expect(calendar.name).toBe('acme: Events & Meetups');
    expect(calendar.events.map((e) => e.summary)).toEqual(['New York before the spring change']);
    const theirs = await subscribe('other');
    const body = (await publicGet(theirs.path)).body;
    const events = readCalendar(body).events;
    expect(events.map((e) => [e.summary, e.uid.split('@')[1]])).toEqual([['Other community picnic', other]]);
    const unknownFeed = await runCli(
      ['calendar-feed', 'create', '--community', 'other', '--feed', '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a9999'],
      env(),
    );
    expect(unknownFeed).toMatchObject({
      code: 1,
      err: "hearth: No feed '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a9999' in this community.",
    });
  });

  it('answer 404 in the error body for an unknown, malformed or revoked secret', async () => {
    const { path } = await subscribe('acme');
    const list = await runCli(['calendar-feed', 'list', '--community', 'acme', '--json'], env());
    const subscriptions = JSON.parse(list.out) as { id: string; revoked_at: string | null }[];
    const last = subscriptions[subscriptions.length - 1];
    expect(last?.revoked_at).toBeNull();
    expect(list.out).not.toContain('hcal_');
    const revoked = await runCli(['calendar-feed', 'revoke', '--community', 'acme', last?.id ?? ''], env());
    expect(revoked).toMatchObject({ code: 0, out: `Revoked calendar subscription ${last?.id}.` });
    const twice = await runCli(['calendar-feed', 'revoke', '--community', 'other', last?.id ?? ''], env());
    expect(twice).toMatchObject({
      code: 1,
      err: `hearth: No live calendar subscription '${last?.id}' in this community.`,
    });
    const unknown = `/calendar/hcal_${'A'.repeat(43)}.ics`;
    for (const url of [path, unknown, '/calendar/hcal_short.ics', path.replace('.ics', ''), '/calendar/%00.ics']) {
      const res = await publicGet(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'not_found', error: 'Calendar was not found.' });
    }
  });

  it('tell subscribers of a deleted, unpublished or unlisted event with STATUS:CANCELLED and a higher SEQUENCE', async () => {
    const { path } = await subscribe('acme');
    const before = byTitle(readCalendar((await publicGet(path)).body).events);
    const seq = (title: string) => before.get(title)?.sequence ?? -1;
    const changed = await send('PATCH', `/admin/v0/calendar_events/${ids['nyAfterSpring']}`, writer, {
      location: 'Queens',
    });
    expect(changed.statusCode).toBe(200);
    expect(await send('DELETE', `/admin/v0/calendar_events/${ids['sydney']}`, writer)).toMatchObject({
      statusCode: 200,
    });
    await send('PATCH', `/admin/v0/calendar_events/${ids['utc']}`, writer, { publish_to_site: false });
    await send('PATCH', `/admin/v0/calendar_events/${ids['recentPast']}`, writer, { is_unlisted: true });
    const after = byTitle(readCalendar((await publicGet(path)).body).events);
    expect(after.get('New York after the spring change')?.sequence).toBeGreaterThan(
      seq('New York after the spring change'),
    );
    expect(after.get('New York after the spring change')?.location).toBe('Queens');
    // Each change again: a second one rises above the first's.
    await send('PATCH', `/admin/v0/calendar_events/${ids['nyAfterSpring']}`, writer, { title: 'New York, spring' });
    const renamed = byTitle(readCalendar((await publicGet(path)).body).events).get('New York, spring');
    expect(renamed?.sequence).toBeGreaterThan(after.get('New York after the spring change')?.sequence ?? 0);
    expect(renamed?.uid).toBe(after.get('New York after the spring change')?.uid);
    for (const title of ['Sydney across the April change', 'An event in UTC', 'Ended ten days ago']) {
      expect(after.get(title)?.status, title).toBe('CANCELLED');
      expect(after.get(title)?.sequence, title).toBeGreaterThan(seq(title));
      expect(after.get(title)?.start.epochMs).toBe(before.get(title)?.start.epochMs);
      expect(after.get(title)?.description ?? null).toBeNull();
    }
    expect(after.get('Sydney across the April change')?.start.tzid).toBe('Australia/Sydney');
    // Back on the site: confirmed again, above the tombstone's SEQUENCE.
    const cancelled = after.get('An event in UTC')?.sequence ?? 0;
    await send('PATCH', `/admin/v0/calendar_events/${ids['utc']}`, writer, { publish_to_site: true });
    const back = byTitle(readCalendar((await publicGet(path)).body).events).get('An event in UTC');
    expect(back?.status).toBe('CONFIRMED');
    expect(back?.sequence).toBeGreaterThan(cancelled);
    // Tombstones last 30 days.
    const now = t.clock.now;
    t.clock.now = now + 31 * 86_400_000;
    try {
      const later = (await publicGet(path)).body;
      expect(later).not.toContain('Sydney across');
      expect(later).not.toContain('STATUS:CANCELLED');
    } finally {
      t.clock.now = now;
    }
  });

  const python = pythonWithIcalendar();
  // CI installs the parser (.ci/run), so there a missing one fails instead of skipping.
  const required = process.env.CI === 'true';
  it.skipIf(python === null && !required)(
    'parse in python3-icalendar without a warning, with the same times',
    async () => {
      if (python === null) throw new Error('python3-icalendar is not installed: apt-get install python3-icalendar');
      const { path } = await subscribe('acme');
      for (const body of [(await publicGet(path)).body, (await t.get('/admin/v0/calendar_events.ics', reader)).body]) {
        const read = readWithPython(python, body);
        expect(read.problems).toEqual([]);
        expect(read.stderr).toBe('');
        const ours = readCalendar(body).events;
        expect(read.events.map((e) => e.uid)).toEqual(ours.map((e) => e.uid));
        read.events.forEach((e, i) => {
          const mine = ours[i];
          if (!mine) throw new Error('missing event');
          expect(e.summary).toBe(mine.summary);
          expect(Date.parse(e.start)).toBe(mine.start.epochMs);
          expect(e.end === null ? null : Date.parse(e.end)).toBe(mine.end?.epochMs ?? null);
        });
      }
    },
  );
  if (python === null && !required)
    it('python3-icalendar is not installed here: apt-get install python3-icalendar (CI installs it)', () => {});
});

describe('the public route is rate-limited per address', () => {
  it('answers 429 in the error body past the limit', async () => {
    const limited = await createTestApp({ config: { rateLimitPerSecond: 2 }, manualRateWindows: true });
    try {
      // At once: the window is one second, and a loaded machine may spread requests sent one by one over two.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          limited.app.inject({ method: 'GET', url: '/calendar/nothing.ics', remoteAddress: '10.0.0.7' }),
        ),
      );
      const refused = answers.filter((a) => a.statusCode === 429);
      expect(refused.length).toBeGreaterThanOrEqual(3);
      expect(answers.filter((a) => a.statusCode === 404).length).toBeLessThanOrEqual(3);
      expect(refused[0]?.json()).toMatchObject({
        success: false,
        code: 'rate_limited',
        error: 'Rate limit of 2 requests per second exceeded; retry in 1 second.',
      });
      expect(refused[0]?.headers['retry-after']).toBe('1');
    } finally {
      await limited.close();
    }
  });
});
