// The console's doors: one-time links, sessions the API never takes and tokens the console never takes, CSRF on
// every change, sign-in attempts limited per address, operators confined to their communities, the off switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { listAudit } from '../../src/audit/audit.service.js';
import { createOperatorsService } from '../../src/operators/operators.service.js';
import { consoleClient, csrfOf, signIn } from '../helpers/console-session.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;
let token: string;
let operators: ReturnType<typeof createOperatorsService>;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token } = await t.seed('acme', baseRecords, ['read', 'members:write']));
  await t.community('other');
  operators = createOperatorsService(t.testStore.store.db, () => t.clock.now);
});
afterAll(() => t?.close());

describe('sign-in links', () => {
  it('sign in once: the session cookie is HttpOnly, SameSite=Lax, on /console; the link is spent', async () => {
    const { link } = await operators.create('Ops@Example.com', ['acme']);
    const client = consoleClient(t.app);
    const answer = await signIn(client, link);
    expect([answer.statusCode, answer.headers.location]).toEqual([303, '/console']);
    const cookie = answer.cookies.find((c) => c.name === 'hearth_session');
    expect(cookie).toMatchObject({ path: '/console', httpOnly: true, sameSite: 'Lax', maxAge: 43_200 });
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.value).toMatch(/^hss_[A-Za-z0-9_-]{43}$/);
    // One community: the console opens on its events.
    const home = await client.get('/console');
    expect([home.statusCode, home.headers.location]).toEqual([303, '/console/c/acme/events']);
    const events = await client.get('/console/c/acme/events');
    expect(events.statusCode).toBe(200);
    expect(events.body).toContain('<span class="who">ops@example.com</span>');

    const again = await signIn(consoleClient(t.app, '10.0.0.2'), link);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('This sign-in link is unknown, already used or expired');
    expect(again.cookies.find((c) => c.name === 'hearth_session')).toBeUndefined();
  });

  it('refuses a link past its 15 minutes', async () => {
    const link = await operators.link('ops@example.com');
    t.clock.now += 15 * 60_000 + 1;
    const answer = await signIn(consoleClient(t.app, '10.0.0.3'), link);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('links last 15 minutes and work once');
  });

  it('sets Secure on the cookie when the request came over TLS through a trusted proxy', async () => {
    const proxied = await createTestApp({ config: { trustProxy: true } });
    try {
      await proxied.community('acme');
      const service = createOperatorsService(proxied.testStore.store.db, () => proxied.clock.now);
      const { link } = await service.create('tls@example.com', []);
      const page = await proxied.app.inject({
        url: `/console/sign-in?link=${link}`,
        headers: { 'x-forwarded-proto': 'https' },
      });
      const answer = await proxied.app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: {
          'x-forwarded-proto': 'https',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: page.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
        },
        payload: new URLSearchParams({ link, _csrf: csrfOf(page.body) }).toString(),
      });
      expect(answer.statusCode).toBe(303);
      expect(answer.cookies.find((c) => c.name === 'hearth_session')?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});

describe('sessions and tokens stay apart', () => {
  it('the API refuses a console session cookie', async () => {
    const client = consoleClient(t.app, '10.0.1.1');
    await signIn(client, await operators.link('ops@example.com'));
    const session = client.cookies.get('hearth_session');
    expect(session).toMatch(/^hss_/);
    const answer = await t.app.inject({
      url: '/admin/v0/calendar_events',
      headers: { cookie: `hearth_session=${session}` },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ success: false, code: 'unauthorized' });
    // Not even as a bearer token.
    const asBearer = await t.get('/admin/v0/calendar_events', String(session));
    expect([asBearer.statusCode, asBearer.json().code]).toEqual([401, 'unauthorized']);
  });

  it('the console refuses an API token, in a header or as its cookie', async () => {
    const byHeader = await t.app.inject({
      url: '/console/c/acme/events',
      headers: { authorization: `Bearer ${token}` },
    });
    expect([byHeader.statusCode, byHeader.headers.location]).toEqual([303, '/console/sign-in']);
    const byCookie = await t.app.inject({
      url: '/console/c/acme/events',
      headers: { cookie: `hearth_session=${token}` },
    });
    expect([byCookie.statusCode, byCookie.headers.location]).toEqual([303, '/console/sign-in']);
  });

  it('signing out ends the session on the server: the old cookie no longer opens a page', async () => {
    const client = consoleClient(t.app, '10.0.1.2');
    await signIn(client, await operators.link('ops@example.com'));
    const session = String(client.cookies.get('hearth_session'));
    const page = await client.get('/console/c/acme/members');
    const out = await client.post('/console/sign-out', {}, page.body);
    expect([out.statusCode, out.headers.location]).toEqual([303, '/console/sign-in']);
    const replayed = await t.app.inject({
      url: '/console/c/acme/members',
      headers: { cookie: `hearth_session=${session}` },
    });
    expect([replayed.statusCode, replayed.headers.location]).toEqual([303, '/console/sign-in']);
  });

  it('revoking sessions from the command line signs every one out', async () => {
    const client = consoleClient(t.app, '10.0.1.3');
    await signIn(client, await operators.link('ops@example.com'));
    expect((await client.get('/console/c/acme/events')).statusCode).toBe(200);
    expect(await operators.revokeSessions('ops@example.com')).toBeGreaterThanOrEqual(1);
    expect((await client.get('/console/c/acme/events')).headers.location).toBe('/console/sign-in');
  });
});

describe('a session read', () => {
  it('is one statement per page, and writes its use at most once a minute', async () => {
    let statements = 0;
    const counted = createOperatorsService(
      t.testStore.store.db.withPlugin({
        transformQuery: (args) => {
          statements++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      }),
      () => t.clock.now,
    );
    const client = consoleClient(t.app, '10.0.1.4');
    await signIn(client, await operators.link('ops@example.com'));
    const secret = String(client.cookies.get('hearth_session'));
    const read = async () => {
      statements = 0;
      const signedIn = await counted.signedIn(secret);
      return [statements, signedIn?.email, signedIn?.communities.map((c) => c.slug)];
    };
    expect(await read()).toEqual([1, 'ops@example.com', ['acme']]);
    t.clock.now += 59_000;
    expect(await read()).toEqual([1, 'ops@example.com', ['acme']]);
    // Past a minute since its use was written: the read, then the write of this use.
    t.clock.now += 2_000;
    expect(await read()).toEqual([2, 'ops@example.com', ['acme']]);
    expect(await read()).toEqual([1, 'ops@example.com', ['acme']]);
    // Revoked: the next read finds nothing, in the same one statement.
    await operators.revokeSessions('ops@example.com');
    expect(await read()).toEqual([1, undefined, undefined]);
  });

  it('an operator of every community reads them all, in the same one statement', async () => {
    const { link } = await operators.create('every@example.com', []);
    const client = consoleClient(t.app, '10.0.1.5');
    await signIn(client, link);
    const signedIn = await operators.signedIn(String(client.cookies.get('hearth_session')));
    expect(signedIn?.communities.map((c) => [c.slug, c.name])).toEqual([
      ['acme', 'acme'],
      ['other', 'other'],
    ]);
  });

  it('ends after 2 hours unused, and after 12 hours however used', async () => {
    const client = consoleClient(t.app, '10.0.1.6');
    await signIn(client, await operators.link('ops@example.com'));
    const signedInAt = t.clock.now;
    // Used every 1 h 59: each use starts the idle window again, up to the 12 hours.
    for (let hours = 1; hours <= 6; hours++) {
      t.clock.now += 2 * 3_600_000 - 60_000;
      expect((await client.get('/console/c/acme/events')).statusCode, `after ${hours} uses`).toBe(200);
    }
    t.clock.now = signedInAt + 12 * 3_600_000 - 1;
    expect((await client.get('/console/c/acme/events')).statusCode).toBe(200);
    t.clock.now = signedInAt + 12 * 3_600_000;
    expect((await client.get('/console/c/acme/events')).headers.location).toBe('/console/sign-in');

    const idle = consoleClient(t.app, '10.0.1.7');
    await signIn(idle, await operators.link('ops@example.com'));
    t.clock.now += 2 * 3_600_000 - 1;
    expect((await idle.get('/console/c/acme/events')).statusCode).toBe(200);
    t.clock.now += 2 * 3_600_000;
    expect((await idle.get('/console/c/acme/events')).headers.location).toBe('/console/sign-in');
  });
});

describe('CSRF', () => {
  it('refuses a change without the form token, or with another session’s, and changes nothing', async () => {
    const client = consoleClient(t.app, '10.0.2.1');
    await signIn(client, await operators.link('ops@example.com'));
    const before = await listAudit(t.testStore.store.db, acme, 100);
    const page = await client.get('/console/c/acme/members');
    const fields = { email: 'csrf@example.com', full_name: 'Cross Site' };
    const without = await client.post('/console/c/acme/members', { ...fields, _csrf: '' }, page.body);
    expect(without.statusCode).toBe(403);
    expect(without.body).toContain('<code>csrf_refused</code>');
    expect(without.body).toContain('This form was not sent from a page of this console');
    const other = consoleClient(t.app, '10.0.2.2');
    const foreign = csrfOf((await other.get('/console/sign-in')).body);
    const forged = await client.post('/console/c/acme/members', { ...fields, _csrf: foreign }, page.body);
    expect(forged.statusCode).toBe(403);
    expect(await listAudit(t.testStore.store.db, acme, 100)).toEqual(before);
    const listed = await client.get('/console/c/acme/members?q=csrf');
    expect(listed.body).toContain('0 members found.');

    const real = await client.post('/console/c/acme/members', fields, page.body);
    expect([real.statusCode, real.headers.location]).toEqual([303, '/console/c/acme/members']);
    expect((await client.get('/console/c/acme/members?q=csrf')).body).toContain(
      'New member was created successfully. (csrf@example.com)',
    );
  });
});

describe('sign-in attempts', () => {
  it('are limited to 10 a minute per address, the 11th refused with 429 and Retry-After', async () => {
    const client = consoleClient(t.app, '10.0.3.1');
    const page = await client.get('/console/sign-in');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await client.post('/console/sign-in', { link: `hsl_wrong${i}` }, page.body)).statusCode);
    expect(statuses).toEqual(Array(10).fill(400));
    const limited = await client.post('/console/sign-in', { link: await operators.link('ops@example.com') }, page.body);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many sign-in attempts from this address (at most 10 a minute)');
    expect(limited.cookies.find((c) => c.name === 'hearth_session')).toBeUndefined();
    // Another address is not held back.
    const elsewhere = await signIn(consoleClient(t.app, '10.0.3.2'), await operators.link('ops@example.com'));
    expect(elsewhere.statusCode).toBe(303);
  });
});

describe('communities', () => {
  it('an operator sees only the communities given, another one is not found', async () => {
    const client = consoleClient(t.app, '10.0.4.1');
    await signIn(client, await operators.link('ops@example.com'));
    const other = await client.get('/console/c/other/events');
    expect(other.statusCode).toBe(404);
    expect(other.body).toContain('No community &#39;other&#39; in this console.');
    // An operator created without communities manages all of them: the console asks which.
    const { link } = await operators.create('all@example.com', []);
    const everyone = consoleClient(t.app, '10.0.4.2');
    await signIn(everyone, link);
    const home = await everyone.get('/console');
    expect(home.statusCode).toBe(200);
    expect([...home.body.matchAll(/href="\/console\/c\/([a-z-]+)\/events"/g)].map((m) => m[1])).toEqual([
      'acme',
      'other',
    ]);
  });
});

describe('CONSOLE=false', () => {
  it('serves no console and sends GET / to the docs page', async () => {
    const off = await createTestApp({ config: { console: false } });
    try {
      const root = await off.app.inject({ url: '/' });
      expect([root.statusCode, root.headers.location]).toEqual([302, '/docs']);
      const page = await off.app.inject({ url: '/console/sign-in' });
      expect(page.statusCode).toBe(404);
      expect(page.json()).toMatchObject({ success: false, code: 'not_found', error: 'No route GET /console/sign-in.' });
    } finally {
      await off.close();
    }
  });
});
