// CORS: off by default; CORS_ORIGINS (a list, or `*`) answers preflights before authentication and adds the headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { badgeGroupRecords, badgeIds, groupIds } from '../../fixtures/badges-groups.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const preflight = (origin: string) => ({
  method: 'OPTIONS' as const,
  url: '/admin/v0/calendar_events',
  headers: {
    origin,
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization,if-none-match',
  },
});

/** Every header Hearth sends that a page's script may read. */
const exposed =
  'Location, ETag, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed, X-Idempotent-Replayed, WWW-Authenticate';

describe('CORS off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a preflight as any OPTIONS without a token (401: the admin API authenticates first), and adds no CORS header', async () => {
    const res = await t.app.inject({
      ...preflight('https://events.example.com'),
      headers: { ...preflight('https://events.example.com').headers, 'x-request-id': 'req-cors' },
    });
    expect([res.statusCode, res.headers['access-control-allow-origin']]).toEqual([401, undefined]);
    expect(res.json()).toMatchObject({ success: false, code: 'unauthorized', request_id: 'req-cors' });
    const token = await t.token(await t.community('acme'));
    const get = await t.get('/admin/v0/calendar_events', token, { origin: 'https://events.example.com' });
    expect([get.statusCode, get.headers['access-control-allow-origin']]).toEqual([200, undefined]);
  });
});

describe('CORS_ORIGINS with a list', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        corsOrigins: loadConfig({ CORS_ORIGINS: 'https://events.example.com, https://www.example.com' }).corsOrigins,
      },
    });
    token = await t.token(await t.community('acme'));
  });
  afterAll(() => t.close());

  it('answers the preflight of a listed origin before authentication: 204 with the methods, headers and max age', async () => {
    const res = await t.app.inject(preflight('https://www.example.com'));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect({
      origin: res.headers['access-control-allow-origin'],
      methods: res.headers['access-control-allow-methods'],
      headers: res.headers['access-control-allow-headers'],
      maxAge: res.headers['access-control-max-age'],
      vary: res.headers['vary'],
      credentials: res.headers['access-control-allow-credentials'],
    }).toEqual({
      origin: 'https://www.example.com',
      methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
      headers: 'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Request-Id',
      maxAge: '600',
      vary: 'Origin',
      credentials: undefined,
    });
  });

  it('adds the origin and the readable headers to answers, errors included', async () => {
    const ok = await t.get('/admin/v0/calendar_events', token, { origin: 'https://events.example.com' });
    expect([ok.statusCode, ok.headers['access-control-allow-origin'], ok.headers['vary']]).toEqual([
      200,
      'https://events.example.com',
      'Origin',
    ]);
    expect(ok.headers['access-control-expose-headers']).toBe(exposed);
    const denied = await t.app.inject({
      method: 'GET',
      url: '/admin/v0/calendar_events',
      headers: { origin: 'https://events.example.com' },
    });
    expect([denied.statusCode, denied.headers['access-control-allow-origin'], denied.json().code]).toEqual([
      401,
      'https://events.example.com',
      'unauthorized',
    ]);
  });

  it('allows the writes: preflights for PATCH and DELETE with If-Match, and a write answer exposes Location and ETag', async () => {
    for (const method of ['PATCH', 'DELETE']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/admin/v0/calendar_events/abc123def456',
        headers: {
          origin: 'https://events.example.com',
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type,if-match,idempotency-key',
        },
      });
      expect({
        status: res.statusCode,
        origin: res.headers['access-control-allow-origin'],
        methods: res.headers['access-control-allow-methods'],
        headers: res.headers['access-control-allow-headers'],
      }).toEqual({
        status: 204,
        origin: 'https://events.example.com',
        methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
        headers: 'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Request-Id',
      });
    }
    const { token: writer } = await t.seed('writers', baseRecords, ['read', 'events:write']);
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/v0/calendar_events',
      headers: {
        authorization: `Bearer ${writer}`,
        'content-type': 'application/json',
        origin: 'https://events.example.com',
        'idempotency-key': 'cors-create-1',
      },
      payload: JSON.stringify({
        title: 'Browser meetup',
        start_date: '2026-12-01T18:00:00Z',
        end_date: '2026-12-01T20:00:00Z',
        hosts: [profileIds.ada],
        description: { text: 'From a page' },
      }),
    });
    const id: string = created.json().data.id;
    expect({
      status: created.statusCode,
      origin: created.headers['access-control-allow-origin'],
      expose: created.headers['access-control-expose-headers'],
      location: created.headers['location'],
      etag: typeof created.headers['etag'],
      limit: created.headers['ratelimit-limit'],
    }).toEqual({
      status: 201,
      origin: 'https://events.example.com',
      expose: exposed,
      location: `/admin/v0/calendar_events/${id}`,
      etag: 'string',
      limit: '10000',
    });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v0/calendar_events/${id}`,
      headers: {
        authorization: `Bearer ${writer}`,
        'content-type': 'application/json',
        origin: 'https://events.example.com',
        'if-match': String(created.headers['etag']),
      },
      payload: JSON.stringify({ title: 'Browser meetup, moved' }),
    });
    expect([
      patched.statusCode,
      patched.headers['access-control-allow-origin'],
      patched.headers['access-control-expose-headers'],
    ]).toEqual([200, 'https://events.example.com', exposed]);
  });

  it("allows PUT (a group's members) in a preflight, and lets a page read X-Idempotent-Replayed of a hosted replay", async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: `/admin/v0/groups/${groupIds.organizers}/members`,
      headers: {
        origin: 'https://events.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect([res.statusCode, res.headers['access-control-allow-methods']]).toEqual([
      204,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
    ]);
    const { community } = await t.seed('browsers', [...baseRecords, ...badgeGroupRecords]);
    const hosted = await t.token(community, ['read', 'members:write'], { fieldNames: 'hosted' });
    const headers = {
      authorization: `Bearer ${hosted}`,
      'content-type': 'application/json',
      origin: 'https://events.example.com',
    };
    const assign = () =>
      t.app.inject({
        method: 'POST',
        url: `/admin/v0/badges/${badgeIds.mentor}/assign`,
        headers: { ...headers, 'idempotency-key': 'cors-assign-1' },
        payload: JSON.stringify({ users: ['U0ADA00001'] }),
      });
    await assign();
    const replay = await assign();
    expect([
      replay.statusCode,
      replay.headers['x-idempotent-replayed'],
      replay.headers['access-control-expose-headers'],
    ]).toEqual([200, 'true', exposed]);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/admin/v0/groups/${groupIds.volunteers}/members`,
      headers,
      payload: JSON.stringify({ users: ['U0ADA00001'] }),
    });
    expect([put.statusCode, put.headers['access-control-allow-origin']]).toEqual([200, 'https://events.example.com']);
  });

  it('gives an origin not on the list no Access-Control-Allow-Origin, so the browser keeps the answer from the page', async () => {
    const res = await t.app.inject(preflight('https://evil.example.net'));
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.get('/admin/v0/calendar_events', token, { origin: 'https://evil.example.net' });
    expect([get.statusCode, get.headers['access-control-allow-origin']]).toEqual([200, undefined]);
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin', async () => {
    const t = await createTestApp({ config: { corsOrigins: ['*'] } });
    const res = await t.app.inject(preflight('https://anything.example.org'));
    expect([res.statusCode, res.headers['access-control-allow-origin'], res.headers['vary']]).toEqual([
      204,
      '*',
      undefined,
    ]);
    await t.close();
  });

  it('refuses an origin that is not a scheme and host', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example.com,events.example.com/' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'events.example.com' })).toThrow(
      new ConfigError(
        "Invalid configuration: CORS_ORIGINS: got 'events.example.com'; allowed: * or origins such as https://events.example.com (scheme and host, no path), comma-separated",
      ),
    );
  });
});
