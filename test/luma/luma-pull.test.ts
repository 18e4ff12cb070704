// The Luma pull against a local stand-in answering as Luma's documented API does: paging by cursor, a 429 waited
// out after its Retry-After, each event's hosts; the mapping field by field; a second pull updates and never
// duplicates; a bad entry or a refused key keeps nothing; the command line reads the key from a file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createLumaClient, LumaError } from '../../src/luma/luma-api.js';
import { eventIdFor, pullLuma } from '../../src/luma/luma-pull.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { startLumaSchedule } from '../../src/cli/luma-schedule.js';
import { loadConfig } from '../../src/config.js';
import { runCli } from '../helpers/run-cli.js';
import { freePort, root, watch } from '../helpers/processes.js';
import { lumaEvent, startLumaStandIn, type LumaStandIn } from '../helpers/luma-stand-in.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const KEY = 'secret-luma-key-1';
// tsx by path: the server runs in a scratch folder, where `--import tsx` would not resolve.
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
let t: TestApp;
let acme: string;
let token: string;
let luma: LumaStandIn;
let waits: number[];

const client = (apiKey = KEY) =>
  createLumaClient({
    baseUrl: luma.url,
    apiKey,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
const pull = (apiKey = KEY) => pullLuma({ writes: t.app.writes, client: client(apiKey), communityId: acme });
const event = async (id: string) =>
  (await t.get(`/admin/v0/calendar_events/${id}?status=published`, token)).json().data;
const lumaEventCount = async () =>
  Number(
    (
      await t.testStore.store.db
        .selectFrom('calendar_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('community_id', '=', acme)
        .where('partner_event_id', 'like', 'evt-%')
        .executeTakeFirstOrThrow()
    ).n,
  );

const online = lumaEvent('evt-online42', {
  name: 'Remote office hours',
  start_at: '2030-04-02T08:30:00.000Z',
  end_at: '2030-04-02T09:30:00.000Z',
  timezone: 'Europe/Berlin',
  geo_address_json: null,
  coordinate: null,
  meeting_url: 'https://zoom.us/j/123456789',
  location_type: 'zoom',
  description_md: '',
  description: 'Bring questions.',
  visibility: 'members-only',
  cover_url: 'https://images.lumacdn.com/event-covers/hours.png',
  hosts: [
    {
      id: 'usr-kj',
      email: 'katherine@example.com',
      name: 'Katherine Johnson',
      first_name: 'Katherine',
      last_name: 'Johnson',
      avatar_url: 'https://images.lumacdn.com/avatars/kj.png',
    },
    {
      id: 'usr-ada',
      email: 'ADA@example.com',
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      avatar_url: 'https://images.lumacdn.com/avatars/ada.png',
    },
  ],
});

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  await t.importRecords(acme, baseRecords);
  token = await t.token(acme, ['read', 'events:write']);
  luma = await startLumaStandIn(KEY);
});
afterAll(async () => {
  await luma.close();
  await t.close();
});
beforeEach(() => {
  waits = [];
  luma.requests.length = 0;
});

describe('a first pull', () => {
  it('reads every page with the key in x-luma-api-key, waits out a 429, and maps each field', async () => {
    luma.events = [
      lumaEvent('evt-rust0001'),
      online,
      lumaEvent('evt-nozone01', { timezone: null, name: 'Zone-less', end_at: null, url: 'not a url', cover_url: '' }),
      lumaEvent('evt-four0001', { name: 'Fourth', hosts: [] }),
      lumaEvent('evt-five0001', { name: 'Fifth', platform: 'external', hosts: undefined }),
    ];
    luma.throttle = { count: 1, retryAfter: '3' };
    const result = await pull();
    expect(result).toEqual({ events: 5, created: 5, updated: 0, unchanged: 0, hostsAdded: 1 });
    expect(waits).toEqual([3000]);
    expect(luma.requests.every((r) => r.headers['x-luma-api-key'] === KEY)).toBe(true);
    const lists = luma.requests.filter((r) => r.path === '/v1/calendars/events/list');
    // The 429, then three pages of two, each with the cursor the page before gave.
    expect(lists.map((r) => r.query['pagination_cursor'] ?? null)).toEqual([
      null,
      null,
      Buffer.from('2').toString('base64url'),
      Buffer.from('4').toString('base64url'),
    ]);
    // The admin view for each event Luma manages (not the external one).
    expect(luma.requests.filter((r) => r.path === '/v1/events/get').map((r) => r.query['event_id'])).toEqual([
      'evt-rust0001',
      'evt-online42',
      'evt-nozone01',
      'evt-four0001',
    ]);

    const rust = await event(eventIdFor('evt-rust0001'));
    expect(rust).toMatchObject({
      id: eventIdFor('evt-rust0001'),
      title: 'Rust meetup',
      slug: 'rust-meetup',
      status: 'published',
      partner_event_id: 'evt-rust0001',
      link: 'https://luma.com/rust0001',
      cover_image_url: 'https://images.lumacdn.com/event-covers/rust.png',
      start_date: '2030-03-12T10:00:00-07:00',
      end_date: '2030-03-12T12:00:00-07:00',
      location: '548 Market St, San Francisco, CA 94104, USA',
      is_unlisted: false,
      publish_to_site: false,
      triggers_webhooks: false,
      enable_registration_button: false,
      attendees_count: 0,
      description_chat_blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [{ type: 'text', text: '**Talks** and pizza.\n\n- Async Rust\n- Embedded' }],
            },
          ],
        },
      ],
    });
    expect(rust.hosts.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.ada]);

    const hours = await event(eventIdFor('evt-online42'));
    expect(hours).toMatchObject({
      title: 'Remote office hours',
      start_date: '2030-04-02T10:30:00+02:00',
      end_date: '2030-04-02T11:30:00+02:00',
      location: 'https://zoom.us/j/123456789',
      is_unlisted: true,
      description_chat_blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Bring questions.' }] }],
        },
      ],
    });
    // Katherine was added as a member; Ada matched by e-mail in another case, in Luma's order.
    const [katherine, ada] = hours.hosts;
    expect(ada.profile_id).toBe(profileIds.ada);
    expect(katherine).toMatchObject({
      email: 'katherine@example.com',
      first_name: 'Katherine',
      last_name: 'Johnson',
      preferred_name: 'Katherine Johnson',
      preferred_image_original: 'https://images.lumacdn.com/avatars/kj.png',
    });

    const zoneless = await event(eventIdFor('evt-nozone01'));
    expect(zoneless).toMatchObject({
      start_date: '2030-03-12T17:00:00+00:00',
      end_date: null,
      link: null,
      cover_image_url: null,
      partner_event_id: 'evt-nozone01',
    });
    // An external event has no admin view: no hosts from Luma.
    expect((await event(eventIdFor('evt-five0001'))).hosts).toEqual([]);

    const hosted = await t.get(
      `/admin/v0/calendar_events/${eventIdFor('evt-rust0001')}`,
      await t.token(acme, ['read'], { fieldNames: 'hosted' }),
    );
    expect(hosted.json().data.luma_event_id).toBe('evt-rust0001');
  });
});

describe('a second pull', () => {
  it('changes nothing when Luma changed nothing, and never duplicates', async () => {
    const before = await t.get(`/admin/v0/calendar_events/${eventIdFor('evt-rust0001')}`, token);
    expect(await pull()).toEqual({ events: 5, created: 0, updated: 0, unchanged: 5, hostsAdded: 0 });
    expect(await lumaEventCount()).toBe(5);
    const after = await t.get(`/admin/v0/calendar_events/${eventIdFor('evt-rust0001')}`, token);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('applies what changed on Luma, keeps what the community set, and finds an event by its partner_event_id', async () => {
    const manual = await t.app.inject({
      method: 'POST',
      url: '/admin/v0/calendar_events',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        title: 'Made here first',
        start_date: '2030-06-01T18:00:00Z',
        end_date: '2030-06-01T20:00:00Z',
        hosts: [profileIds.grace],
        description: { text: 'Old text' },
        partner_event_id: 'evt-manual01',
        publish_to_site: true,
      }),
    });
    expect(manual.statusCode).toBe(201);
    const manualId = manual.json().data.id as string;
    // The community publishes the Rust meetup to its site; Luma renames and moves it.
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v0/calendar_events/${eventIdFor('evt-rust0001')}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ publish_to_site: true }),
    });
    luma.events[0] = lumaEvent('evt-rust0001', {
      name: 'Rust meetup: spring edition',
      start_at: '2030-03-19T17:00:00.000Z',
      end_at: '2030-03-19T19:30:00.000Z',
    });
    luma.events.push(
      lumaEvent('evt-manual01', {
        name: 'Made on Luma after all',
        start_at: '2030-06-01T18:00:00.000Z',
        end_at: '2030-06-01T20:00:00.000Z',
      }),
    );
    expect(await pull()).toEqual({ events: 6, created: 0, updated: 2, unchanged: 4, hostsAdded: 0 });
    expect(await lumaEventCount()).toBe(6);
    expect(await event(eventIdFor('evt-rust0001'))).toMatchObject({
      title: 'Rust meetup: spring edition',
      slug: 'rust-meetup',
      start_date: '2030-03-19T10:00:00-07:00',
      end_date: '2030-03-19T12:30:00-07:00',
      publish_to_site: true,
    });
    const updated = await event(manualId);
    expect(updated).toMatchObject({
      title: 'Made on Luma after all',
      publish_to_site: true,
      partner_event_id: 'evt-manual01',
    });
    expect(updated.hosts.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.ada]);
    const audit = await t.testStore.store.db
      .selectFrom('audit_log')
      .select(['action', 'subject_id', 'token_id'])
      .where('community_id', '=', acme)
      .where('token_id', '=', 'luma')
      .where('subject_id', '=', manualId)
      .execute();
    expect(audit).toEqual([{ action: 'calendar_event.updated', subject_id: manualId, token_id: 'luma' }]);
  });
});

describe('failures keep nothing', () => {
  it('an entry without a start names its page and entry, and nothing is written', async () => {
    const saved = [...luma.events];
    luma.events.push(lumaEvent('evt-new00001'), lumaEvent('evt-broken01', { start_at: null }));
    await expect(pull()).rejects.toThrow(
      'Luma answered events Hearth cannot keep; nothing written:\n  page 4, entry 2: evt-broken01 has no start_at with a time and an offset',
    );
    expect(await lumaEventCount()).toBe(6);
    luma.events = saved;
  });

  it('a refused key is named and not retried', async () => {
    const error = await pull('wrong-key').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LumaError);
    expect((error as LumaError).message).toBe(
      `GET ${luma.url}/v1/calendars/events/list answered 401: Invalid API key. (check the Luma API key)`,
    );
    expect(luma.requests).toHaveLength(1);
  });
});

describe('hearth luma pull', () => {
  it('reads the key from --api-key-file or LUMA_API_KEY, never from its arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-luma-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'luma.key');
    writeFileSync(file, `${KEY}\n`);
    const env = { DATABASE_URL: t.testStore.url, LUMA_API_URL: luma.url };
    const run = await runCli(['luma', 'pull', '--community', 'acme', '--api-key-file', file], env);
    expect(run.err).toContain('page 1: 2 events');
    expect(run.out).toBe("Pulled 6 Luma events into 'acme': 0 new, 0 changed, 6 unchanged; 0 hosts added as members.");
    expect(run.code).toBe(0);
    const fromEnv = await runCli(['luma', 'pull', '--community', 'acme'], { ...env, LUMA_API_KEY: KEY });
    expect(fromEnv.code).toBe(0);
    const none = await runCli(['luma', 'pull', '--community', 'acme'], env);
    expect(none.code).toBe(1);
    expect(none.err).toContain('No Luma API key: set LUMA_API_KEY, or give --api-key-file with a file holding it.');
  });
});

describe('hearth serve --luma-pull-every', () => {
  it('refuses a schedule it cannot run before serving', async () => {
    const env = { DATABASE_URL: t.testStore.url, LUMA_API_URL: luma.url, PORT: '0' };
    const noCommunity = await runCli(['serve', '--luma-pull-every', '15m'], { ...env, LUMA_API_KEY: KEY });
    expect(noCommunity.code).toBe(1);
    expect(noCommunity.err).toContain('A Luma pull schedule needs LUMA_COMMUNITY');
    const zero = await runCli(['serve', '--luma-pull-every', '0m'], {
      ...env,
      LUMA_API_KEY: KEY,
      LUMA_COMMUNITY: 'acme',
    });
    expect(zero.code).toBe(1);
    expect(zero.err).toContain("Invalid duration '0m'");
    const noKey = await runCli(['serve'], { ...env, LUMA_PULL_EVERY: '15m', LUMA_COMMUNITY: 'acme' });
    expect(noKey.code).toBe(1);
    expect(noKey.err).toContain('No Luma API key');
  });

  it('hearth serve --luma-pull-every 15m pulls at start inside the server, logs the run, and stops on SIGTERM', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-luma-serve-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    luma.events.push(lumaEvent('evt-serve001', { name: 'Pulled by serve' }));
    const child = spawn(
      process.execPath,
      [
        '--import',
        tsx,
        join(root, 'src/cli/bin.ts'),
        'serve',
        '--port',
        String(await freePort()),
        '--luma-pull-every',
        '15m',
      ],
      {
        cwd,
        env: {
          ...process.env,
          DATABASE_URL: t.testStore.url,
          LUMA_API_URL: luma.url,
          LUMA_COMMUNITY: 'acme',
          LUMA_API_KEY: KEY,
          LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const watched = watch(child);
    try {
      await watched.waitFor(/Pulled \d+ Luma events into 'acme': 1 new/, 60_000);
      expect((await event(eventIdFor('evt-serve001'))).title).toBe('Pulled by serve');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await watched.exited).toBe(0);
  }, 90_000);

  it('pulls at start, then every period, inside the server', async () => {
    luma.events.push(lumaEvent('evt-sched001', { name: 'Scheduled' }));
    const config = loadConfig({}, { databaseUrl: t.testStore.url, lumaApiUrl: luma.url });
    const schedule = startLumaSchedule(t.app, config, () => t.clock.now, {
      everyMs: 60_000,
      slug: 'acme',
      apiKey: KEY,
    });
    for (
      let tries = 0;
      tries < 200 && (await t.get(`/admin/v0/calendar_events/${eventIdFor('evt-sched001')}`, token)).statusCode !== 200;
      tries++
    )
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await event(eventIdFor('evt-sched001'))).title).toBe('Scheduled');
    await schedule.runNow();
    await schedule.stop();
    expect(luma.requests.filter((r) => r.path === '/v1/calendars/events/list').length).toBeGreaterThanOrEqual(8);
  });
});
