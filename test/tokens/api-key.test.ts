// GET /api_key/me: the calling token described (never its secret), its field-name mode, and who may ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
});
afterAll(() => t.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('GET /admin/v0/api_key/me', () => {
  it('describes the calling token: id, name, mode, scopes, community and dates, never the secret', async () => {
    const tokens = createTokensService(t.testStore.store.db, () => t.clock.now);
    const { id, secret } = await tokens.create(acme, {
      name: 'ci',
      scopes: ['read', 'members:write'],
      expiresInMs: 86_400_000,
    });
    const res = await t.get('/admin/v0/api_key/me', secret);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(secret);
    const { data } = res.json();
    expect(data).toEqual({
      id,
      name: 'ci',
      field_names: 'spec',
      scopes: ['read', 'members:write'],
      community: { id: acme, slug: 'acme', name: 'acme' },
      // The test clock is 2026-03-10T12:00:00Z: the token is made by it, and lives one day.
      created_at: '2026-03-10 12:00:00.000000+00',
      expires_at: '2026-03-11 12:00:00.000000+00',
      // This very request is the token's first use.
      last_used_at: '2026-03-10 12:00:00.000000+00',
    });
    expect(Object.keys(data)).toEqual([
      'id',
      'name',
      'field_names',
      'scopes',
      'community',
      'created_at',
      'expires_at',
      'last_used_at',
    ]);
    expect(data.id).toMatch(uuid);
  });

  it('shows the hosted mode of a hosted token, in the same keys', async () => {
    const secret = await t.token(acme, ['read'], { fieldNames: 'hosted' });
    const { data } = (await t.get('/admin/v0/api_key/me', secret)).json();
    expect([data.name, data.field_names, data.scopes, data.expires_at]).toEqual([null, 'hosted', ['read'], null]);
  });

  it('answers 401 without a valid token and 403 without the read scope', async () => {
    const none = await t.app.inject({
      method: 'GET',
      url: '/admin/v0/api_key/me',
      headers: { 'x-request-id': 'req-me' },
    });
    expect([none.statusCode, none.json().code]).toEqual([401, 'unauthorized']);
    const writer = await t.token(acme, ['members:write']);
    const res = await t.get('/admin/v0/api_key/me', writer, { 'x-request-id': 'req-me' });
    expect(res.json()).toEqual({
      success: false,
      error: "This operation needs the 'read' scope; the token has: members:write.",
      code: 'insufficient_scope',
      request_id: 'req-me',
    });
  });
});
