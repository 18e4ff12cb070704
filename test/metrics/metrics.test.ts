// GET /metrics: Prometheus text from prom-client; requests by route template, method and status, 429s, idempotent
// replays, the pool (PostgreSQL), process metrics; open by default, behind METRICS_TOKEN when it is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { postMember } from '../members/member-requests.js';

/** The value of one sample (`name{labels}` exactly as exposed), or null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

const requests = (route: string, method: string, status: number) =>
  `hearth_http_request_duration_seconds_count{route="${route}",method="${method}",status="${status}"}`;

describe('GET /metrics, open', () => {
  let t: TestApp;
  let token: string;
  let writer: string;
  let community: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerSecond: 3 }, manualRateWindows: true });
    ({ community, token } = await t.seed('metrics', baseRecords, ['read']));
    writer = await t.token(community, ['read', 'members:write']);
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.body;
  };

  it('counts requests by route template, method and status, with a latency histogram', async () => {
    const before = await scrape();
    expect(sample(before, requests('/admin/v0/calendar_events/:calendar_event_id', 'GET', 200))).toBeNull();
    expect((await t.get('/admin/v0/calendar_events/evdstcross01', token)).statusCode).toBe(200);
    expect((await t.get('/admin/v0/calendar_events/evongoing001', token)).statusCode).toBe(200);
    expect((await t.get('/admin/v0/calendar_events/evnotthere01', token)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/no/such/path' })).statusCode).toBe(404);

    const after = await scrape();
    expect(sample(after, requests('/admin/v0/calendar_events/:calendar_event_id', 'GET', 200))).toBe(2);
    expect(sample(after, requests('/admin/v0/calendar_events/:calendar_event_id', 'GET', 404))).toBe(1);
    // Unknown paths share one label value: a scanner cannot multiply the series.
    expect(sample(after, requests('unmatched', 'GET', 404))).toBe(1);
    // The scrape before this one was counted too.
    expect(sample(after, requests('/metrics', 'GET', 200))).toBe(1);
    const route = 'route="/admin/v0/calendar_events/:calendar_event_id",method="GET",status="200"';
    expect(sample(after, `hearth_http_request_duration_seconds_bucket{le="+Inf",${route}}`)).toBe(2);
    expect(sample(after, `hearth_http_request_duration_seconds_sum{${route}}`)).toBeGreaterThan(0);
    expect(after).toContain('# TYPE hearth_http_request_duration_seconds histogram');
  });

  it('counts rate-limit rejections and idempotent replays', async () => {
    const limited = await Promise.all(Array.from({ length: 5 }, () => t.get('/admin/v0/calendar_events', token)));
    const refused = limited.filter((res) => res.statusCode === 429).length;
    expect(refused).toBeGreaterThanOrEqual(2);

    const body = { email: 'metrics@example.com', full_name: 'Metric Person' };
    expect((await postMember(t.app, writer, body, { 'idempotency-key': 'metrics-1' })).statusCode).toBe(201);
    const replay = await postMember(t.app, writer, body, { 'idempotency-key': 'metrics-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const text = await scrape();
    expect(sample(text, 'hearth_rate_limited_total')).toBe(refused);
    expect(sample(text, requests('/admin/v0/calendar_events', 'GET', 429))).toBe(refused);
    expect(sample(text, 'hearth_idempotent_replays_total')).toBe(1);
    expect(sample(text, requests('/admin/v0/members', 'POST', 201))).toBe(2);
  });

  it('counts answer cache hits and misses', async () => {
    // A token of its own: the others spent their rate-limit second above.
    const reader = await t.token(community, ['read']);
    const before = await scrape();
    const hits = sample(before, 'hearth_answer_cache_hits_total') ?? Number.NaN;
    const misses = sample(before, 'hearth_answer_cache_misses_total') ?? Number.NaN;
    expect((await t.get('/admin/v0/calendar_events/evpastnoend1', reader)).statusCode).toBe(200);
    expect((await t.get('/admin/v0/calendar_events/evpastnoend1', reader)).statusCode).toBe(200);
    const after = await scrape();
    expect(sample(after, 'hearth_answer_cache_misses_total')).toBe(misses + 1);
    expect(sample(after, 'hearth_answer_cache_hits_total')).toBe(hits + 1);
  });

  it('has the process metrics, and the pool on PostgreSQL only', async () => {
    const text = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    }
    if (testDatabaseUrl) {
      expect(sample(text, 'hearth_db_pool_size')).toBe(5);
      expect(sample(text, 'hearth_db_pool_waiting')).toBe(0);
      expect(sample(text, 'hearth_db_pool_in_use')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hearth_db_pool_idle')).toBeGreaterThanOrEqual(0);
    } else {
      expect(text).not.toContain('hearth_db_pool');
    }
  });

  it('is not part of the admin API: no token, no rate limit, not in the OpenAPI document', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer hth_not_a_token' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    const document = (await t.app.inject({ method: 'GET', url: '/admin/v0/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(document.paths).some((path) => path.includes('metrics'))).toBe(false);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const metricsToken = 'scrape-secret-0123456789';

  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken } });
  });
  afterAll(() => t.close());

  it('answers 401 in the error envelope without the token or with another one, 200 with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong-secret-0123456789', `Basic ${metricsToken}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({
        success: false,
        error: 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".',
        code: 'unauthorized',
        request_id: res.headers['x-request-id'],
      });
    }
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(sample(ok.body, requests('/metrics', 'GET', 401))).toBe(3);
  });
});
