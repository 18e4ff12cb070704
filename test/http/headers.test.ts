// Cross-cutting headers: ETag and 304, RateLimit-* and 429, X-Request-Id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords } from '../../fixtures/community.js';

let t: TestApp;
let token: string;
/** A token of another community, which holds nothing. */
let neighbour: string;

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimitPerSecond: 5 }, manualRateWindows: true });
  ({ token } = await t.seed('acme', baseRecords));
  ({ token: neighbour } = await t.seed('etag-1'));
});
afterAll(() => t.close());

describe('ETag', () => {
  it('answers 304 without a body when If-None-Match holds the current ETag', async () => {
    const first = await t.get('/admin/v0/calendar_events/evongoing001', token);
    const etag = first.headers['etag'];
    // Made of the versions of the event and of what it embeds (opaque to clients).
    expect(etag).toMatch(/^"e[0-9a-z]+(\.[0-9a-z]+)*"$/);
    const second = await t.get('/admin/v0/calendar_events/evongoing001', token, { 'if-none-match': String(etag) });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers['etag']).toBe(etag);
    const listed = await t.get('/admin/v0/calendar_events/evongoing001', token, {
      'if-none-match': `"nope", W/${etag}`,
    });
    expect(listed.statusCode).toBe(304);
    const stale = await t.get('/admin/v0/calendar_events/evongoing001', token, { 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().data.id).toBe('evongoing001');
    // Another community does not see the event, nor its ETag.
    const elsewhere = await t.get('/admin/v0/calendar_events/evongoing001', neighbour, {
      'if-none-match': String(etag),
    });
    expect([elsewhere.statusCode, elsewhere.headers['etag']]).toEqual([404, undefined]);
  });

  it('differs between different answers and is absent on errors', async () => {
    const a = await t.get('/admin/v0/calendar_events?per_page=1', token);
    const b = await t.get('/admin/v0/calendar_events?per_page=2', token);
    expect(a.headers['etag']).not.toBe(b.headers['etag']);
    const missing = await t.get('/admin/v0/calendar_events/zzzzzzzzzzzz', token);
    expect(missing.headers['etag']).toBeUndefined();
  });
});

describe('request ids', () => {
  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const sane = await t.get('/admin/v0/calendar_events', token, { 'x-request-id': 'abc-123.DEF_456' });
    expect(sane.headers['x-request-id']).toBe('abc-123.DEF_456');
    const unsafe = await t.get('/admin/v0/calendar_events', token, { 'x-request-id': 'bad id <script>' });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
    const none = await t.app.inject({ method: 'GET', url: '/admin/v0/nowhere' });
    expect(none.headers['x-request-id']).toBe(none.json().request_id);
  });
});

describe('rate limits', () => {
  it('counts down per token, then answers 429 with Retry-After', async () => {
    const limited = await t.token(await t.community('limited'));
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.get('/admin/v0/calendar_events', limited);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-reset']).toBe('1');
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const res = await t.get('/admin/v0/calendar_events', limited, { 'x-request-id': 'req-429' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(res.json()).toEqual({
      success: false,
      error: 'Rate limit of 5 requests per second exceeded; retry in 1 second.',
      code: 'rate_limited',
      request_id: 'req-429',
    });
    // Another token is counted on its own.
    expect((await t.get('/admin/v0/calendar_events', await t.token(await t.community('fresh')))).statusCode).toBe(200);
  });
});
