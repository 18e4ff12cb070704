// Authentication and tenancy: every way a token can be wrong, and a second community that never shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { badgeGroupRecords, badgeIds, groupIds } from '../../fixtures/badges-groups.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';

let t: TestApp;
let acme: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token } = await t.seed('acme', baseRecords));
});
afterAll(() => t.close());

const path = '/admin/v0/calendar_events';

describe('authentication', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['no header', {}, 'Missing or malformed Authorization header; expected "Bearer <token>".'],
    [
      'another scheme',
      { authorization: 'Basic dXNlcjpwYXNz' },
      'Missing or malformed Authorization header; expected "Bearer <token>".',
    ],
    [
      'an empty bearer',
      { authorization: 'Bearer ' },
      'Missing or malformed Authorization header; expected "Bearer <token>".',
    ],
    [
      'an unknown token',
      { authorization: 'Bearer hth_nottherightsecret' },
      'The bearer token is unknown, revoked or expired.',
    ],
    [
      'a token with odd bytes',
      { authorization: 'Bearer \u00ff\u00fe' },
      'The bearer token is unknown, revoked or expired.',
    ],
  ];
  for (const [name, headers, message] of cases) {
    it(`answers 401 for ${name}`, async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: path,
        headers: { ...headers, 'x-request-id': 'req-auth-1' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ success: false, error: message, code: 'unauthorized', request_id: 'req-auth-1' });
    });
  }

  it('accepts the token in any case of "Bearer"', async () => {
    const res = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `bearer ${token}` } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a revoked token within one second (principals are reused for at most a second)', async () => {
    const tokens = createTokensService(t.testStore.store.db, () => t.clock.now);
    const { id, secret } = await tokens.create(acme, { scopes: ['read'] });
    expect((await t.get(path, secret)).statusCode).toBe(200);
    expect(await tokens.revoke(id)).toBe(true);
    const revokedAt = performance.now();
    let res = await t.get(path, secret);
    // Asked every 10 ms: unpaced, a fast machine sent more than the token's 10,000 requests a second and met 429.
    while (res.statusCode === 200 && performance.now() - revokedAt < 1500) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      res = await t.get(path, secret);
    }
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
    expect(performance.now() - revokedAt).toBeLessThan(1200);
  });

  it('refuses an expired token, and records last use', async () => {
    const secret = await t.token(acme, ['read'], { expiresInMs: 60_000 });
    expect((await t.get(path, secret)).statusCode).toBe(200);
    const tokens = createTokensService(t.testStore.store.db);
    const listed = (await tokens.list(acme)).find((row) => row.expires_at !== null);
    expect(listed?.last_used_at).toBe('2026-03-10 12:00:00.000000');
    t.clock.now += 60_000;
    try {
      expect((await t.get(path, secret)).statusCode).toBe(401);
    } finally {
      t.clock.now -= 60_000;
    }
  });

  it('stores only a hash of the secret', async () => {
    const secret = await t.token(acme);
    const rows = await t.testStore.store.db.selectFrom('tokens').select('secret_hash').execute();
    expect(rows.some((r) => r.secret_hash.includes(secret) || secret.includes(r.secret_hash))).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.secret_hash))).toBe(true);
  });
});

describe('tenancy', () => {
  it("never shows, counts or finds another community's data", async () => {
    const other = await t.community('other');
    // The same ids in another community: ids are unique per community only.
    await t.importRecords(other, [
      ...baseRecords.filter((r) => r.kind !== 'calendar_event'),
      { kind: 'calendar_event', id: 'evongoing001', title: 'Other office hours', start_date: '2026-03-10T09:00:00Z' },
      { kind: 'calendar_event', id: 'evotheronly1', title: 'Other only', start_date: '2026-03-12T09:00:00Z' },
    ]);
    const otherToken = await t.token(other);

    const mine = (await t.get(path, token)).json().data;
    expect(mine.total_records).toBe(6);
    expect(mine.records.map((r: { title: string }) => r.title)).not.toContain('Other only');
    expect((await t.get(`${path}/evotheronly1`, token)).statusCode).toBe(404);
    expect((await t.get(`${path}/evongoing001`, token)).json().data.title).toBe('Office hours');
    expect((await t.get(`${path}/evongoing001`, otherToken)).json().data.title).toBe('Other office hours');

    const theirs = (await t.get(path, otherToken)).json().data;
    expect(theirs.total_records).toBe(2);
    expect((await t.get(`${path}?feed_id=${feedIds.events}`, otherToken)).json().data.total_records).toBe(0);
  });

  it("never shows, counts or finds another community's badges and groups", async () => {
    const { community: third } = await t.seed('third', [...baseRecords, ...badgeGroupRecords]);
    const thirdToken = await t.token(third);
    for (const kind of ['badges', 'groups'] as const) {
      const id = kind === 'badges' ? badgeIds.speaker : groupIds.organizers;
      expect((await t.get(`/admin/v0/${kind}`, token)).json().data, kind).toEqual({
        page: 0,
        per_page: 10,
        count: 0,
        total_records: 0,
        total_pages: 0,
        has_next: false,
        records: [],
      });
      expect((await t.get(`/admin/v0/${kind}/${id}`, token)).statusCode, kind).toBe(404);
      expect((await t.get(`/admin/v0/${kind}/${id}`, thirdToken)).json().data.id, kind).toBe(id);
    }
  });
});
