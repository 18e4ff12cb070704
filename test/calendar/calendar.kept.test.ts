// Where a written calendar is kept: by what it was asked when no bound of it moves with the clock (answered again
// without reading its events, until the store changes), by its ETag otherwise (the events read at every ask).
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeds, ada } from '../../fixtures/community.js';
import { createCalendarFeedsService } from '../../src/calendar/calendar-feeds.service.js';
import { createCalendarService, type CalendarService } from '../../src/calendar/calendar.service.js';
import { createAnswerCache } from '../../src/fragments/answer-cache.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;
let writer: string;
let calendars: CalendarService;
let eventId = '';
/** Statements that read calendar_events, counted by a plugin on the service's own handle of the store. */
let eventReads = 0;
/** The write runner's signal, as the app hands it to its answer cache: called after each write of this test. */
let committed: () => void = () => {};

/** Set by a test: a change seen while the events are being read, as a commit of another request would be. */
let changeWhileReading = false;

const countEventReads: KyselyPlugin = {
  transformQuery(args) {
    if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"calendar_events"')) {
      eventReads++;
      if (changeWhileReading) committed();
    }
    return args.node;
  },
  transformResult: async (args) => args.result,
};

async function patchTitle(title: string): Promise<void> {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/admin/v0/calendar_events/${eventId}`,
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ title }),
  });
  expect(res.statusCode, res.body).toBe(200);
  committed();
}

beforeAll(async () => {
  t = await createTestApp({ now: Date.parse('2026-03-10T12:00:00Z') });
  acme = await t.community('acme');
  await t.importRecords(acme, [...feeds, ada]);
  writer = await t.token(acme, ['read', 'events:write']);
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v0/calendar_events',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      title: 'Spring meetup',
      start_date: '2026-03-20T18:00:00Z',
      end_date: '2026-03-20T20:00:00Z',
      hosts: ['ada@example.com'],
      description: { text: 'Talks' },
      publish_to_site: true,
    }),
  });
  expect(res.statusCode, res.body).toBe(201);
  eventId = res.json().data.id;
  const { store } = t.testStore;
  const clock = () => t.clock.now;
  const cache = createAnswerCache(store, 32 * 2 ** 20, (listener) => {
    committed = listener;
  });
  calendars = createCalendarService(
    store.db.withPlugin(countEventReads),
    createCalendarFeedsService(store.db, clock),
    clock,
    cache,
  );
});
afterAll(() => t.close());

describe('a written calendar kept', () => {
  it('by its query for a day: asked again, the same bytes without reading the events; after a change, read again', async () => {
    const query = { date_filter: '2026-03-20' } as const;
    const reads = eventReads;
    const first = await calendars.forAdmin(acme, query);
    const body = first.body().toString('utf8');
    expect(body).toContain('SUMMARY:Spring meetup');
    expect(eventReads).toBe(reads + 1);
    const second = await calendars.forAdmin(acme, query);
    expect([second.etag, second.body().toString('utf8'), eventReads]).toEqual([first.etag, body, reads + 1]);
    // Another day is another query.
    await calendars.forAdmin(acme, { date_filter: '2026-03-21' });
    expect(eventReads).toBe(reads + 2);

    await patchTitle('Spring meetup, renamed');
    const third = await calendars.forAdmin(acme, query);
    expect(eventReads).toBe(reads + 3);
    expect(third.etag).not.toBe(first.etag);
    expect(third.body().toString('utf8')).toContain('SUMMARY:Spring meetup\\, renamed');
  });

  it('by its ETag for upcoming events: the events read at every ask, and the clock alone changes the answer', async () => {
    const query = { time_filter: 'upcoming' } as const;
    const reads = eventReads;
    const first = await calendars.forAdmin(acme, query);
    expect(first.body().toString('utf8')).toContain('BEGIN:VEVENT');
    const second = await calendars.forAdmin(acme, query);
    expect([second.etag, eventReads]).toEqual([first.etag, reads + 2]);
    const now = t.clock.now;
    t.clock.now = Date.parse('2026-03-21T00:00:00Z');
    try {
      const later = await calendars.forAdmin(acme, query);
      expect(later.etag).not.toBe(first.etag);
      expect(later.body().toString('utf8')).not.toContain('BEGIN:VEVENT');
    } finally {
      t.clock.now = now;
    }
  });

  it('not when the store changed while its events were read: the next ask reads them again', async () => {
    const query = { date_filter: '2026-03-20' } as const;
    await patchTitle('Read while a change commits');
    const reads = eventReads;
    changeWhileReading = true;
    try {
      const first = await calendars.forAdmin(acme, query);
      expect(first.body().toString('utf8')).toContain('SUMMARY:Read while a change commits');
    } finally {
      changeWhileReading = false;
    }
    (await calendars.forAdmin(acme, query)).body();
    expect(eventReads).toBe(reads + 2);
    await calendars.forAdmin(acme, query);
    expect(eventReads).toBe(reads + 2);
  });

  it('not by its query when the answer was a 304 (never written): the next ask reads the events again', async () => {
    const query = { date_filter: '2026-03-22' } as const;
    const reads = eventReads;
    await calendars.forAdmin(acme, query);
    await calendars.forAdmin(acme, query);
    expect(eventReads).toBe(reads + 2);
  });
});
