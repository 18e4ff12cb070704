// Values that once got past validation: integers written as exponents, hex or with signs, and text with NUL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { postMember } from '../members/member-requests.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', baseRecords, ['read', 'members:write']));
});
afterAll(() => t.close());

const listRoutes = [
  '/admin/v0/calendar_events?',
  `/admin/v0/feeds/${feedIds.general}/posts?`,
  '/admin/v0/feeds/home/posts?',
  '/admin/v0/search?q=welcome&type=post&',
  '/admin/v0/search?q=welcome&type=comment&',
];

const digitsOnly = (field: string) => ({
  success: false,
  error: `Invalid parameter '${field}': must be an integer written in decimal digits.`,
  code: 'invalid_parameter',
  request_id: 'req-int',
  details: [{ field, message: 'must be an integer written in decimal digits' }],
});

describe('integer query values are decimal digits only', () => {
  // 1e309 and 1e400 became Infinity, passed validation and the page cap, and answered 500.
  const values = ['1e309', '1e400', '-1e400', '1e1', '0x10', '+5', '%205', '5%20', '1.0', '0b1', 'Infinity'];
  for (const route of listRoutes) {
    for (const field of ['page', 'per_page']) {
      it(`answers 400 naming ${field} for every non-decimal spelling on ${route.split('?')[0]}`, async () => {
        for (const value of values) {
          const res = await t.get(`${route}${field}=${value}`, token, { 'x-request-id': 'req-int' });
          expect([value, res.statusCode]).toEqual([value, 400]);
          expect(res.json()).toEqual(digitsOnly(field));
        }
      });
    }
  }

  it("keeps the validator's own findings first, and names both fields", async () => {
    const res = await t.get('/admin/v0/calendar_events?page=-1&per_page=0', token);
    expect(res.json().details).toEqual([
      { field: 'page', message: 'must be >= 0' },
      { field: 'per_page', message: 'must be >= 1' },
    ]);
    const both = await t.get('/admin/v0/calendar_events?page=1e1&per_page=0x10', token, { 'x-request-id': 'req-int' });
    expect(both.json().details).toEqual([
      { field: 'page', message: 'must be an integer written in decimal digits' },
      { field: 'per_page', message: 'must be an integer written in decimal digits' },
    ]);
  });

  it('still accepts plain digits, leading zeros included', async () => {
    const res = await t.get('/admin/v0/calendar_events?page=00&per_page=007', token);
    expect(res.statusCode).toBe(200);
    expect([res.json().data.page, res.json().data.per_page]).toEqual([0, 7]);
  });
});

describe('text with NUL', () => {
  const nul = (field: string) => ({
    success: false,
    error: `Invalid body field '${field}': must not contain the NUL character.`,
    code: 'invalid_body',
    request_id: 'req-nul',
    details: [{ field, message: 'must not contain the NUL character' }],
  });

  // PostgreSQL answered 500 (it cannot store NUL), SQLite 201: now one answer on both.
  it('refuses a full name with NUL with the same 400 on every store', async () => {
    const res = await postMember(
      t.app,
      token,
      { email: 'nul@example.com', full_name: 'A\u0000 B' },
      { 'x-request-id': 'req-nul' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(nul('full_name'));
  });

  it('refuses NUL in any body field, and keeps nothing', async () => {
    for (const [field, body] of [
      ['email', { email: 'a\u0000@example.com', full_name: 'A B' }],
      [
        'avatar_url_original',
        { email: 'nul@example.com', full_name: 'A B', avatar_url_original: 'https://x.example/\u0000' },
      ],
      ['nickname', { email: 'nul@example.com', full_name: 'A B', nickname: '\u0000' }],
    ] as const) {
      const res = await postMember(t.app, token, body, { 'x-request-id': 'req-nul' });
      expect(res.json()).toEqual(nul(field));
    }
    const stored = await t.testStore.store.db
      .selectFrom('profiles')
      .select('id')
      .where('email_key', '=', 'nul@example.com')
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('dates at the ends of the calendar', () => {
  // The day after 9999-12-31 was written as `+010000-01-01`, which PostgreSQL refused with a 500.
  it('answers date filters on the first and last days of years 1 and 9999', async () => {
    for (const value of [
      '9999-12-31',
      '9999-12-31T23:59:59Z',
      '9999-12-31T23:59:59-12:00',
      '0001-01-01',
      '0001-01-01T00:00:00+14:00',
    ]) {
      const res = await t.get(`/admin/v0/calendar_events?date_filter=${encodeURIComponent(value)}`, token);
      expect([value, res.statusCode, res.json().data.total_records]).toEqual([value, 200, 0]);
    }
  });
});
