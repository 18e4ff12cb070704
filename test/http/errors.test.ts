// Bad input of every kind gets the documented error body, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords } from '../../fixtures/community.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', baseRecords));
});
afterAll(() => t.close());

const invalid = (field: string, message: string, error: string) => ({
  success: false,
  error,
  code: 'invalid_parameter',
  request_id: 'req-1',
  details: [{ field, message }],
});

describe('invalid parameters', () => {
  const cases: [string, ReturnType<typeof invalid>][] = [
    ['/calendar_events?per_page=0', invalid('per_page', 'must be >= 1', "Invalid parameter 'per_page': must be >= 1.")],
    [
      '/calendar_events?per_page=101',
      invalid('per_page', 'must be <= 100', "Invalid parameter 'per_page': must be <= 100."),
    ],
    [
      '/calendar_events?per_page=abc',
      invalid('per_page', 'must be integer', "Invalid parameter 'per_page': must be integer."),
    ],
    ['/calendar_events?page=1.5', invalid('page', 'must be integer', "Invalid parameter 'page': must be integer.")],
    ['/calendar_events?page=-1', invalid('page', 'must be >= 0', "Invalid parameter 'page': must be >= 0.")],
    [
      '/calendar_events?page=1&page=2',
      invalid('page', 'must be integer', "Invalid parameter 'page': must be integer."),
    ],
    [
      '/calendar_events?time_filter=soon',
      invalid(
        'time_filter',
        'must be one of: upcoming, past',
        "Invalid parameter 'time_filter': must be one of: upcoming, past.",
      ),
    ],
    [
      '/calendar_events?status=archived',
      invalid(
        'status',
        'must be one of: draft, needs_approval, published',
        "Invalid parameter 'status': must be one of: draft, needs_approval, published.",
      ),
    ],
    [
      '/calendar_events?published_to_site=yes',
      invalid('published_to_site', 'must be boolean', "Invalid parameter 'published_to_site': must be boolean."),
    ],
    [
      '/calendar_events?is_unlisted=1',
      invalid('is_unlisted', 'must be boolean', "Invalid parameter 'is_unlisted': must be boolean."),
    ],
    [
      '/calendar_events?feed_id=general',
      invalid(
        'feed_id',
        'must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"',
        'Invalid parameter \'feed_id\': must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$".',
      ),
    ],
    [
      '/calendar_events?date_filter=2026-02-30',
      invalid(
        'date_filter',
        'must be an ISO 8601 date or date-time',
        "Invalid parameter 'date_filter': expected an ISO 8601 date or date-time.",
      ),
    ],
    [
      '/calendar_events?date_filter=tomorrow',
      invalid(
        'date_filter',
        'must be an ISO 8601 date or date-time',
        "Invalid parameter 'date_filter': expected an ISO 8601 date or date-time.",
      ),
    ],
    [
      '/calendar_events/short',
      invalid(
        'calendar_event_id',
        'must NOT have fewer than 12 characters',
        "Invalid parameter 'calendar_event_id': must NOT have fewer than 12 characters.",
      ),
    ],
    [
      '/calendar_events/EVONGOING001',
      invalid(
        'calendar_event_id',
        'must match pattern "^[a-z0-9]{12}$"',
        'Invalid parameter \'calendar_event_id\': must match pattern "^[a-z0-9]{12}$".',
      ),
    ],
  ];
  for (const [url, body] of cases) {
    it(`answers 400 for ${url}`, async () => {
      const res = await t.get(`/admin/v0${url}`, token, { 'x-request-id': 'req-1' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(body);
    });
  }

  it('names every bad parameter at once', async () => {
    const res = await t.get('/admin/v0/calendar_events?page=-1&per_page=0', token);
    expect(res.json().details).toEqual([
      { field: 'page', message: 'must be >= 0' },
      { field: 'per_page', message: 'must be >= 1' },
    ]);
  });

  it('ignores unknown query parameters', async () => {
    const res = await t.get('/admin/v0/calendar_events?colour=blue', token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total_records).toBe(6);
  });
});

describe('unknown things', () => {
  it('answers 404 for an unknown event', async () => {
    const res = await t.get('/admin/v0/calendar_events/zzzzzzzzzzzz', token, { 'x-request-id': 'req-2' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: "Calendar event 'zzzzzzzzzzzz' was not found.",
      code: 'not_found',
      request_id: 'req-2',
    });
  });

  it('answers 404 for an unknown route', async () => {
    const res = await t.get('/admin/v0/nothing-here', token, { 'x-request-id': 'req-3' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: 'No route GET /admin/v0/nothing-here.',
      code: 'not_found',
      request_id: 'req-3',
    });
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/admin/v0/calendar_events/evongoing001',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-4' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, PATCH, DELETE');
    expect(res.json()).toEqual({
      success: false,
      error: 'Method PUT is not allowed here; use GET, HEAD, PATCH, DELETE.',
      code: 'method_not_allowed',
      request_id: 'req-4',
    });
  });

  it('answers 400 for a malformed URL', async () => {
    const res = await t.get('/admin/v0/calendar_events/%E0%A4%A', token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_parameter');
  });
});
