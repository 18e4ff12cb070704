// An event's times as decided (issue 35, item 16): in its IANA time zone's offset at that instant, and without a zone
// in UTC (`+00:00`), whatever offset they were written with, on create, change, import and in hosted mode; and
// `show_end_date` true on a create that leaves it out, as the hosted product's create does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords } from '../../fixtures/community.js';

let t: TestApp;
let acme: string;
let writer: string;
let hostedWriter: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  await t.importRecords(acme, baseRecords);
  writer = await t.token(acme, ['read', 'events:write']);
  hostedWriter = await t.token(acme, ['read', 'events:write'], { fieldNames: 'hosted' });
});
afterAll(() => t.close());

const path = '/admin/v0/calendar_events';
const send = (method: 'POST' | 'PATCH', url: string, token: string, body: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const minimal = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:30:00-07:00',
  hosts: ['ada@example.com'],
  description: { text: 'Talks and pizza' },
};

type Times = { start_date: string; end_date: string | null };
const times = ({ start_date, end_date }: Times) => [start_date, end_date];

/** The event's times as GET by id, the list and the event's own created answer give them. */
async function answered(id: string, token = writer): Promise<unknown[][]> {
  const one = (await t.get(`${path}/${id}`, token)).json().data as Times;
  const listed = ((await t.get(`${path}?per_page=100`, token)).json().data.records as (Times & { id: string })[]).find(
    (event) => event.id === id,
  );
  return [times(one), listed ? times(listed) : []];
}

describe('times of an event without a time zone', () => {
  it('answers a create in UTC, the same instants, by id and in lists', async () => {
    const created = await send('POST', path, writer, { ...minimal, end_date: '2026-04-02T07:00:00+05:30' });
    expect(created.statusCode).toBe(201);
    const event = created.json().data;
    expect(times(event)).toEqual(['2026-04-02T01:00:00+00:00', '2026-04-02T01:30:00+00:00']);
    expect(await answered(event.id)).toEqual([
      ['2026-04-02T01:00:00+00:00', '2026-04-02T01:30:00+00:00'],
      ['2026-04-02T01:00:00+00:00', '2026-04-02T01:30:00+00:00'],
    ]);
  });

  it('answers a change in UTC, also when the change drops the time zone', async () => {
    const zoned = (
      await send('POST', path, writer, { ...minimal, timezone: 'America/Los_Angeles', title: 'Zoned meetup' })
    ).json().data;
    expect(times(zoned)).toEqual(['2026-04-01T18:00:00-07:00', '2026-04-01T20:30:00-07:00']);

    const dropped = await send('PATCH', `${path}/${zoned.id}`, writer, { timezone: null });
    expect([dropped.statusCode, ...times(dropped.json().data)]).toEqual([
      200,
      '2026-04-02T01:00:00+00:00',
      '2026-04-02T03:30:00+00:00',
    ]);

    const moved = await send('PATCH', `${path}/${zoned.id}`, writer, { start_date: '2026-04-02T00:30:00+02:00' });
    expect([moved.statusCode, ...times(moved.json().data)]).toEqual([
      200,
      '2026-04-01T22:30:00+00:00',
      '2026-04-02T03:30:00+00:00',
    ]);
    expect(await answered(zoned.id)).toEqual([
      ['2026-04-01T22:30:00+00:00', '2026-04-02T03:30:00+00:00'],
      ['2026-04-01T22:30:00+00:00', '2026-04-02T03:30:00+00:00'],
    ]);
  });

  it('answers an import in UTC, in spec and hosted names, and in hosted mode', async () => {
    await t.importRecords(acme, [
      {
        kind: 'calendar_event',
        id: 'evimported01',
        title: 'Imported',
        start_date: '2026-05-01T18:00:00+09:00',
        end_date: '2026-05-01 19:00:00.000000+00',
      },
      {
        kind: 'calendar_event',
        id: 'evhosted0001',
        title: 'Hosted names',
        start_date: '2026-05-02T09:00:00-04:00',
        end_date: null,
        luma_event_id: 'evt-LUMA9',
        description_slack_blocks: null,
      },
    ]);
    expect(await answered('evimported01')).toEqual([
      ['2026-05-01T09:00:00+00:00', '2026-05-01T19:00:00+00:00'],
      ['2026-05-01T09:00:00+00:00', '2026-05-01T19:00:00+00:00'],
    ]);
    for (const token of [writer, hostedWriter])
      expect(await answered('evhosted0001', token)).toEqual([
        ['2026-05-02T13:00:00+00:00', null],
        ['2026-05-02T13:00:00+00:00', null],
      ]);
  });

  it('answers a hosted-mode create in UTC', async () => {
    const created = await send('POST', path, hostedWriter, { ...minimal, title: 'Hosted meetup' });
    expect(created.statusCode).toBe(201);
    const event = created.json().data;
    expect([event.luma_event_id, ...times(event)]).toEqual([
      null,
      '2026-04-02T01:00:00+00:00',
      '2026-04-02T03:30:00+00:00',
    ]);
    expect(await answered(event.id, hostedWriter)).toEqual([
      ['2026-04-02T01:00:00+00:00', '2026-04-02T03:30:00+00:00'],
      ['2026-04-02T01:00:00+00:00', '2026-04-02T03:30:00+00:00'],
    ]);
  });
});

describe('show_end_date', () => {
  it('is true on a create that leaves it out, as given otherwise; an import without it keeps false', async () => {
    const left = (await send('POST', path, writer, { ...minimal, title: 'Shows its end' })).json().data;
    const given = (
      await send('POST', path, writer, { ...minimal, title: 'Hides its end', show_end_date: false })
    ).json().data;
    const hosted = (await send('POST', path, hostedWriter, { ...minimal, title: 'Hosted, shows its end' })).json().data;
    await t.importRecords(acme, [
      { kind: 'calendar_event', id: 'evnoflag0001', title: 'No flag', start_date: '2026-05-03T10:00:00Z' },
    ]);
    const imported = (await t.get(`${path}/evnoflag0001`, writer)).json().data;
    expect([left, given, hosted, imported].map((event) => [event.title, event.show_end_date])).toEqual([
      ['Shows its end', true],
      ['Hides its end', false],
      ['Hosted, shows its end', true],
      ['No flag', false],
    ]);
    expect((await t.get(`${path}/${left.id}`, writer)).json().data.show_end_date).toBe(true);
  });
});
