// The feed endpoints refuse what breaks their rules (400), answer 404 for unknown feeds, and keep communities apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { announcements } from '../../fixtures/feeds.js';

let t: TestApp;
let token: string;
let strangerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', baseRecords));
  ({ token: strangerToken } = await t.seed('stranger', [announcements]));
});
afterAll(() => t.close());

const errorOf = async (path: string, as = token, headers: Record<string, string> = {}) => {
  const res = await t.get(path, as, { 'x-request-id': 'req-feeds', ...headers });
  return { status: res.statusCode, body: res.json() };
};

describe('validation', () => {
  const cases: [string, string, string][] = [
    ['/admin/v0/feeds?is_archived=yes', 'is_archived', 'must be boolean'],
    ['/admin/v0/feeds?is_unlisted=1', 'is_unlisted', 'must be boolean'],
    ['/admin/v0/feeds?per_page=0', 'per_page', 'must be >= 1'],
    ['/admin/v0/feeds?page=-1', 'page', 'must be >= 0'],
    [
      '/admin/v0/feeds/home',
      'feed_id',
      'must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"',
    ],
  ];
  for (const [path, field, message] of cases) {
    it(`answers 400 for ${path}`, async () => {
      expect(await errorOf(path)).toEqual({
        status: 400,
        body: {
          success: false,
          error: `Invalid parameter '${field}': ${message}.`,
          code: 'invalid_parameter',
          request_id: 'req-feeds',
          details: [{ field, message }],
        },
      });
    });
  }
});

describe('not found and tenancy', () => {
  it('answers 404 for a feed that does not exist', async () => {
    const unknown = '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0fff';
    expect(await errorOf(`/admin/v0/feeds/${unknown}`)).toEqual({
      status: 404,
      body: { success: false, error: `Feed '${unknown}' was not found.`, code: 'not_found', request_id: 'req-feeds' },
    });
  });

  it("never shows or counts another community's feeds", async () => {
    expect((await errorOf(`/admin/v0/feeds/${announcements.id}`)).status).toBe(404);
    expect((await errorOf(`/admin/v0/feeds/${feedIds.general}`, strangerToken)).status).toBe(404);
    const mine = (await t.get('/admin/v0/feeds', strangerToken)).json().data;
    expect([mine.total_records, mine.records.map((r: { id: string }) => r.id)]).toEqual([1, [announcements.id]]);
    expect((await t.get('/admin/v0/feeds', token)).json().data.total_records).toBe(4);
  });

  it('needs a token with the read scope', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v0/feeds' })).statusCode).toBe(401);
    const writer = await t.token(await t.community('writers'), ['members:write']);
    expect(await errorOf('/admin/v0/feeds', writer)).toEqual({
      status: 403,
      body: {
        success: false,
        error: "This operation needs the 'read' scope; the token has: members:write.",
        code: 'insufficient_scope',
        request_id: 'req-feeds',
      },
    });
  });
});
