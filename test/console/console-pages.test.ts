// The console's page helpers: times as pages show them, the month view's days (UTC, earliest first), and the
// members list's pages (ids from the index, then their rows) on the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthGrid, parseMonth } from '../../src/console/month.js';
import { when } from '../../src/console/render.js';
import { createOperatorsService } from '../../src/operators/operators.service.js';
import { consoleClient, signIn, type ConsoleClient } from '../helpers/console-session.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { postMember } from '../members/member-requests.js';

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

describe('the members list', () => {
  let t: TestApp;
  let client: ConsoleClient;

  beforeAll(async () => {
    t = await createTestApp();
    const community = await t.community('pages');
    const token = await t.token(community, ['read', 'members:write']);
    // Added out of order; one deactivated.
    for (const [email, name] of [
      ['eve@example.com', 'Eve Adams'],
      ['bob@example.com', 'Bob Marsh'],
      ['dan@example.com', 'Dan Adair'],
      ['amy@example.com', 'Amy Stone'],
      ['cat@example.com', 'Cat Ng'],
    ])
      expect((await postMember(t.app, token, { email, full_name: name })).statusCode).toBe(201);
    const { link } = await createOperatorsService(t.testStore.store.db, () => t.clock.now).create('p@example.com', [
      'pages',
    ]);
    client = consoleClient(t.app);
    await signIn(client, link);
    const page = await client.get('/console/c/pages/members?q=bob');
    const bob = /action="\/console\/c\/pages\/members\/([^/]+)\/deactivate"/.exec(page.body)?.[1];
    expect((await client.post(`/console/c/pages/members/${bob}/deactivate`, {}, page.body)).statusCode).toBe(303);
  });
  afterAll(() => t?.close());

  const listed = async (query: string) => {
    const page = await client.get(`/console/c/pages/members?${query}`);
    expect(page.statusCode).toBe(200);
    const emails = [...page.body.matchAll(/<td data-label="E-mail">([^<]+)<\/td>/g)].map((m) => m[1]);
    return [/<p>(\d+) members? found\.<\/p>/.exec(page.body)?.[1], emails];
  };

  it('pages in e-mail order, counting every match', async () => {
    expect(await listed('per_page=2')).toEqual(['5', ['amy@example.com', 'bob@example.com']]);
    expect(await listed('per_page=2&page=1')).toEqual(['5', ['cat@example.com', 'dan@example.com']]);
    expect(await listed('per_page=2&page=2')).toEqual(['5', ['eve@example.com']]);
    expect(await listed('per_page=2&page=3')).toEqual(['5', []]);
  });

  it('filters by state and searches names and e-mails', async () => {
    expect(await listed('state=active&per_page=3')).toEqual([
      '4',
      ['amy@example.com', 'cat@example.com', 'dan@example.com'],
    ]);
    expect(await listed('state=deactivated')).toEqual(['1', ['bob@example.com']]);
    expect(await listed('q=ada')).toEqual(['2', ['dan@example.com', 'eve@example.com']]);
    expect(await listed('q=ada&state=active&page=0&per_page=1')).toEqual(['2', ['dan@example.com']]);
  });
});
