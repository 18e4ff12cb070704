// Cached by-id answers over a real socket: the route's early exit gives the same status, headers (in order), bytes,
// 304s, count against the token's limit and request log lines as an answer read from the store, also behind a proxy.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/lib/secret-hash.js';
import { privateRedisAvailable, startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { postIds, postRecords } from '../../fixtures/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let community: string;
let token: string;
let port: number;

interface Raw {
  status: number;
  /** Header names and values in the order they were sent. */
  headers: [string, string][];
  body: string;
}

function get(path: string, headers: Record<string, string>, to = port): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: to, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([String(res.rawHeaders[i]).toLowerCase(), String(res.rawHeaders[i + 1])]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer cache's hits and misses so far, as an app's /metrics counts them. */
async function cacheCounts(app = t.app): Promise<{ hits: number; misses: number }> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  const sample = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  return { hits: sample('hearth_answer_cache_hits_total'), misses: sample('hearth_answer_cache_misses_total') };
}
/** What one request did to the answer cache's counts. */
async function counted<T>(send: () => Promise<T>, app = t.app): Promise<[T, { hits: number; misses: number }]> {
  const before = await cacheCounts(app);
  const answer = await send();
  const after = await cacheCounts(app);
  return [answer, { hits: after.hits - before.hits, misses: after.misses - before.misses }];
}

/** Headers whose values differ between any two answers (the time, the id, the window's count and age). */
const varying = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);
const stable = (raw: Raw) => raw.headers.map(([name, value]) => (varying.has(name) ? [name] : [name, value]));
const names = (raw: Raw) => raw.headers.map(([name]) => name);
const header = (raw: Raw, name: string) => raw.headers.find(([key]) => key === name)?.[1];
/** A request that announces an (empty) body: the early exit leaves it to the handler, which reads and judges it. */
const viaHandler = { 'content-length': '0' };

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimitPerSecond: 5 }, manualRateWindows: true });
  ({ community, token } = await t.seed('fast', postRecords));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Ends the token's one-second rate-limit window (the test's windows end only when told). */
const nextWindow = async () => t.nextRateWindow();

describe('cached by-id answers', () => {
  it('answers a cached post and event exactly as a read from the store: status, headers in order, bytes, and 304', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const path of [`/admin/v0/posts/${postIds.plain}`, '/admin/v0/calendar_events/evberlin0001']) {
      await nextWindow();
      // The first answer is read from the store (a miss, through the handler); the next leaves from the cache.
      const [read, readCounts] = await counted(() => get(path, auth));
      const [cached, cachedCounts] = await counted(() => get(path, auth));
      expect([readCounts, cachedCounts]).toEqual([
        { hits: 0, misses: 1 },
        { hits: 1, misses: 0 },
      ]);
      expect([cached.status, cached.body]).toEqual([200, read.body]);
      expect(stable(cached)).toEqual(stable(read));
      expect(names(cached)).toEqual([
        'x-request-id',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'etag',
        'content-type',
        // Over 1 KB: it may leave compressed, so it says so also when it does not.
        'vary',
        'content-length',
        'date',
        'connection',
        'keep-alive',
      ]);
      expect(header(cached, 'ratelimit-remaining')).toBe('3');
      const etag = header(cached, 'etag') ?? expect.unreachable();

      const [cached304, counts304] = await counted(() => get(path, { ...auth, 'if-none-match': `W/${etag}` }));
      const handler304 = await get(path, { ...auth, ...viaHandler, 'if-none-match': etag });
      expect([cached304.status, cached304.body, handler304.status, counts304]).toEqual([
        304,
        '',
        304,
        { hits: 1, misses: 0 },
      ]);
      expect(stable(cached304)).toEqual(stable(handler304));
    }
  });

  it('counts against the token: past the limit the 429, counted once', async () => {
    await nextWindow();
    const path = `/admin/v0/posts/${postIds.plain}`;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await get(path, { authorization: `Bearer ${token}` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((a) => header(a, 'ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0', '0']);
    const refused = answers[5] ?? expect.unreachable();
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, code: 'rate_limited' });
    expect(header(refused, 'retry-after')).toMatch(/^[1-9]$/);
  });

  it('still refuses an unknown token and a missing scope, and answers hosted names, an Origin and an uncached id as ever', async () => {
    await nextWindow();
    const path = `/admin/v0/posts/${postIds.plain}`;
    const writeOnly = await t.token(community, ['members:write']);
    const hosted = await t.token(community, ['read'], { fieldNames: 'hosted' });
    const unknown = await get(path, { authorization: 'Bearer hth_nope' });
    // A token's first request authenticates against the store; its second is admitted from memory.
    await get(path, { authorization: `Bearer ${writeOnly}` });
    const noScope = await get(path, { authorization: `Bearer ${writeOnly}` });
    await get(path, { authorization: `Bearer ${hosted}` });
    const hostedAnswer = await get(path, { authorization: `Bearer ${hosted}` });
    const missing = await get('/admin/v0/posts/nosuchpost01', { authorization: `Bearer ${token}` });
    const withOrigin = await get(path, { authorization: `Bearer ${token}`, origin: 'https://example.org' });
    expect([unknown.status, JSON.parse(unknown.body).code]).toEqual([401, 'unauthorized']);
    expect([noScope.status, JSON.parse(noScope.body).code]).toEqual([403, 'insufficient_scope']);
    expect([hostedAnswer.status, header(hostedAnswer, 'etag')]).toEqual([200, expect.stringMatching(/\.hosted"$/)]);
    expect([missing.status, JSON.parse(missing.body).code]).toEqual([404, 'not_found']);
    expect(withOrigin.status).toBe(200);
  });
});

/** An app whose request log lines are kept, listening on a port of its own. */
async function loggedApp(config: Parameters<typeof createTestApp>[0] = {}) {
  const lines: Record<string, unknown>[] = [];
  const app = await createTestApp({
    ...config,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  const id = await app.community('logged');
  await app.importRecords(id, postRecords);
  const secret = await app.token(id);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return { app, lines, secret, port: (app.app.server.address() as AddressInfo).port };
}

describe('cached by-id answers when Fastify logs each request (info)', () => {
  let logged: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    logged = await loggedApp();
  });
  afterAll(() => logged.app.close());

  /** The request lines of one answer, without what differs between any two (time, id, port, duration). */
  const requestLines = (id: string) =>
    logged.lines
      .filter((line) => line['request_id'] === id)
      .map(({ time, request_id, responseTime, ...rest }) => {
        expect([typeof time, typeof responseTime === 'number' || responseTime === undefined]).toEqual(['number', true]);
        const req = rest['req'] as Record<string, unknown> | undefined;
        return req ? { ...rest, req: { ...req, remotePort: typeof req['remotePort'] } } : rest;
      });

  it('writes the same two lines as an answer read from the store', async () => {
    const path = `/admin/v0/posts/${postIds.plain}`;
    const auth = { authorization: `Bearer ${logged.secret}` };
    const [read, readCounts] = await counted(() => get(path, auth, logged.port), logged.app.app);
    const [cached, cachedCounts] = await counted(() => get(path, auth, logged.port), logged.app.app);
    expect([read.status, readCounts, cached.status, cachedCounts]).toEqual([
      200,
      { hits: 0, misses: 1 },
      200,
      { hits: 1, misses: 0 },
    ]);
    const idOf = (raw: Raw) => header(raw, 'x-request-id') ?? expect.unreachable();
    const cachedLines = requestLines(idOf(cached));
    expect(cachedLines.map((line) => line['msg'])).toEqual(['incoming request', 'request completed']);
    expect(cachedLines).toEqual(requestLines(idOf(read)));
    expect(cachedLines[0]).toEqual({
      level: 30,
      pid: process.pid,
      hostname: expect.any(String),
      req: {
        method: 'GET',
        url: path,
        host: `127.0.0.1:${logged.port}`,
        remoteAddress: '127.0.0.1',
        remotePort: 'number',
      },
      msg: 'incoming request',
    });
    expect(cachedLines[1]).toEqual({
      level: 30,
      pid: process.pid,
      hostname: expect.any(String),
      res: { statusCode: 200 },
      msg: 'request completed',
    });
  });
});

describe('cached by-id answers behind a trusted proxy (TRUST_PROXY)', () => {
  let proxied: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    proxied = await loggedApp({ config: { trustProxy: true, rateLimitPerSecond: 5 }, manualRateWindows: true });
  });
  afterAll(() => proxied.app.close());

  it('leave from the cache with the same headers, the client named by the proxy logged and limited', async () => {
    const path = `/admin/v0/posts/${postIds.plain}`;
    const auth = { authorization: `Bearer ${proxied.secret}`, 'x-forwarded-for': '203.0.113.7' };
    const [read] = await counted(() => get(path, auth, proxied.port), proxied.app.app);
    const [cached, counts] = await counted(() => get(path, auth, proxied.port), proxied.app.app);
    expect([read.status, cached.status, cached.body, counts]).toEqual([200, 200, read.body, { hits: 1, misses: 0 }]);
    expect(stable(cached)).toEqual(stable(read));
    expect(header(cached, 'ratelimit-remaining')).toBe('3');
    const incoming = proxied.lines.find(
      (line) => line['request_id'] === header(cached, 'x-request-id') && line['msg'] === 'incoming request',
    );
    expect((incoming?.['req'] as Record<string, unknown> | undefined)?.['remoteAddress']).toBe('203.0.113.7');
  });
});

describe.runIf(privateRedisAvailable())('cached by-id answers with counts shared through Redis', () => {
  let redis: PrivateRedis;
  let shared: TestApp;
  let sharedPort: number;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    shared = await createTestApp({ config: { redisUrl: redis.url, rateLimitPerSecond: 3 } });
    const id = await shared.community('fastshared');
    await shared.importRecords(id, postRecords);
    await shared.app.listen({ port: 0, host: '127.0.0.1' });
    sharedPort = (shared.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await shared?.close();
    await redis?.stop();
  });

  it('counts each request once in Redis, answers under the limit from the cache and refuses past it', async () => {
    const secret = await shared.token(
      (await shared.testStore.store.db.selectFrom('communities').select('id').executeTakeFirstOrThrow()).id,
    );
    const [answers, counts] = await counted(async () => {
      const sent: Raw[] = [];
      for (let i = 0; i < 4; i++)
        sent.push(await get(`/admin/v0/posts/${postIds.plain}`, { authorization: `Bearer ${secret}` }, sharedPort));
      return sent;
    }, shared.app);
    // The first is read from the store; the next two leave from the cache; the fourth is over the limit.
    expect([answers.map((a) => a.status), counts]).toEqual([[200, 200, 200, 429], { hits: 2, misses: 1 }]);
    const client = new Redis(redis.url);
    try {
      expect(await client.get(`hearth:rl:t:${hashSecret(secret)}`)).toBe('4');
    } finally {
      client.disconnect();
    }
  });
});
