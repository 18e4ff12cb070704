// Liveness and readiness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health', () => {
  it('answers /healthz and /readyz without a token', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
    }
  });

  it('sends GET / to the console (on by default)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect([res.statusCode, res.headers.location, res.body]).toEqual([302, '/console', '']);
  });
});
