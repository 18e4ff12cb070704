// The by-id fast path over a real socket: the same status, headers (in order) and bytes as Fastify's path, the
// same count against the token's limit, and Fastify's own answer wherever the fast path must stand aside.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/tokens/tokens.service.js';
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

/** The fast path's answers so far, as an app's /metrics counts them. */
const fastAnswers = async (app = t.app) =>
  Number(
    /^hearth_fast_path_answers_total (\d+)$/m.exec((await app.inject({ method: 'GET', url: '/metrics' })).body)?.[1],
  );
/** Headers whose values differ between any two answers (the time, the id, the window's count and age). */
const varying = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);
const stable = (raw: Raw) => raw.headers.map(([name, value]) => (varying.has(name) ? [name] : [name, value]));

beforeAll(async () => {
  t = await createTestApp({ config: { rateLimitPerSecond: 5 } });
  ({ community, token } = await t.seed('fast', postRecords));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Waits out the token's one-second rate-limit window. */
const nextWindow = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('the by-id fast path', () => {
  it('answers a cached post and event exactly as Fastify does: status, headers in order, bytes, and 304', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const path of [`/admin/v0/posts/${postIds.plain}`, '/admin/v0/calendar_events/evberlin0001']) {
      await nextWindow();
      // A query string sends the request to Fastify, which answers from the same cache entry.
      const viaFastify = await get(`${path}?via=fastify`, auth);
      const before = await fastAnswers();
      const fast = await get(path, auth);
      expect((await fastAnswers()) - before).toBe(1);
      expect([fast.status, fast.body]).toEqual([200, viaFastify.body]);
      expect(stable(fast)).toEqual(stable(viaFastify));
      expect(fast.headers.find(([name]) => name === 'ratelimit-remaining')).toEqual(['ratelimit-remaining', '3']);
      const etag = fast.headers.find(([name]) => name === 'etag')?.[1] ?? expect.unreachable();

      const fast304 = await get(path, { ...auth, 'if-none-match': `W/${etag}` });
      const fastify304 = await get(`${path}?via=fastify`, { ...auth, 'if-none-match': etag });
      expect([fast304.status, fast304.body, fastify304.status]).toEqual([304, '', 304]);
      expect(stable(fast304)).toEqual(stable(fastify304));
    }
  });

  it('counts against the token: past the limit Fastify answers the 429, counted once', async () => {
    await nextWindow();
    const path = `/admin/v0/posts/${postIds.plain}`;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await get(path, { authorization: `Bearer ${token}` }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((a) => a.headers.find(([name]) => name === 'ratelimit-remaining')?.[1])).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
      '0',
    ]);
    const refused = answers[5] ?? expect.unreachable();
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, code: 'rate_limited' });
    expect(refused.headers.find(([name]) => name === 'retry-after')?.[1]).toMatch(/^[1-9]$/);
  });

  it('stands aside for an unknown token, a missing scope, hosted names, an Origin and an uncached id', async () => {
    await nextWindow();
    const path = `/admin/v0/posts/${postIds.plain}`;
    const before = await fastAnswers();
    const writeOnly = await t.token(community, ['members:write']);
    const hosted = await t.token(community, ['read'], { fieldNames: 'hosted' });
    const unknown = await get(path, { authorization: 'Bearer hth_nope' });
    // The first request of a token is Fastify's (it authenticates); the second would be the fast path's.
    await get(path, { authorization: `Bearer ${writeOnly}` });
    const noScope = await get(path, { authorization: `Bearer ${writeOnly}` });
    await get(path, { authorization: `Bearer ${hosted}` });
    const hostedAnswer = await get(path, { authorization: `Bearer ${hosted}` });
    const missing = await get('/admin/v0/posts/nosuchpost01', { authorization: `Bearer ${token}` });
    const withOrigin = await get(path, { authorization: `Bearer ${token}`, origin: 'https://example.org' });
    expect([unknown.status, JSON.parse(unknown.body).code]).toEqual([401, 'unauthorized']);
    expect([noScope.status, JSON.parse(noScope.body).code]).toEqual([403, 'insufficient_scope']);
    expect([hostedAnswer.status, hostedAnswer.headers.find(([name]) => name === 'etag')?.[1]]).toEqual([
      200,
      expect.stringMatching(/\.hosted"$/),
    ]);
    expect([missing.status, JSON.parse(missing.body).code]).toEqual([404, 'not_found']);
    expect(withOrigin.status).toBe(200);
    expect((await fastAnswers()) - before).toBe(0);
  });
});

describe('the by-id fast path when Fastify logs each request (info)', () => {
  let logged: TestApp;
  let loggedPort: number;
  let loggedToken: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    logged = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    const id = await logged.community('logged');
    await logged.importRecords(id, postRecords);
    loggedToken = await logged.token(id);
    await logged.app.listen({ port: 0, host: '127.0.0.1' });
    loggedPort = (logged.app.server.address() as AddressInfo).port;
  });
  afterAll(() => logged.close());

  /** The request lines of one answer, without what differs between any two (time, id, port, duration, query). */
  const requestLines = (id: string) =>
    lines
      .filter((line) => line['request_id'] === id)
      .map(({ time, request_id, responseTime, ...rest }) => {
        expect([typeof time, typeof responseTime === 'number' || responseTime === undefined]).toEqual(['number', true]);
        const req = rest['req'] as Record<string, unknown> | undefined;
        return req
          ? {
              ...rest,
              req: {
                ...req,
                url: String(req['url']).replace('?via=fastify', ''),
                remotePort: typeof req['remotePort'],
              },
            }
          : rest;
      });

  it('still answers, and writes the same two lines as Fastify', async () => {
    const path = `/admin/v0/posts/${postIds.plain}`;
    const auth = { authorization: `Bearer ${loggedToken}` };
    const viaFastify = await get(`${path}?via=fastify`, auth, loggedPort);
    const before = await fastAnswers(logged.app);
    const fast = await get(path, auth, loggedPort);
    const after = await fastAnswers(logged.app);
    expect([fast.status, after - before]).toEqual([200, 1]);
    const idOf = (raw: Raw) => raw.headers.find(([name]) => name === 'x-request-id')?.[1] ?? expect.unreachable();
    const fastLines = requestLines(idOf(fast));
    expect(fastLines.map((line) => line['msg'])).toEqual(['incoming request', 'request completed']);
    expect(fastLines).toEqual(requestLines(idOf(viaFastify)));
    expect(fastLines[0]).toEqual({
      level: 30,
      pid: process.pid,
      hostname: expect.any(String),
      req: {
        method: 'GET',
        url: path,
        host: `127.0.0.1:${loggedPort}`,
        remoteAddress: '127.0.0.1',
        remotePort: 'number',
      },
      msg: 'incoming request',
    });
    expect(fastLines[1]).toEqual({
      level: 30,
      pid: process.pid,
      hostname: expect.any(String),
      res: { statusCode: 200 },
      msg: 'request completed',
    });
  });
});

describe.runIf(privateRedisAvailable())('the by-id fast path with counts shared through Redis', () => {
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

  it('counts each request once in Redis, answers under the limit and hands the 429 to Fastify', async () => {
    const secret = await shared.token(
      (await shared.testStore.store.db.selectFrom('communities').select('id').executeTakeFirstOrThrow()).id,
    );
    const answers: Raw[] = [];
    const before = await fastAnswers(shared.app);
    for (let i = 0; i < 4; i++)
      answers.push(await get(`/admin/v0/posts/${postIds.plain}`, { authorization: `Bearer ${secret}` }, sharedPort));
    const after = await fastAnswers(shared.app);
    // The first is Fastify's (the token is checked against the store); the next two leave by the fast path.
    expect([answers.map((a) => a.status), after - before]).toEqual([[200, 200, 200, 429], 2]);
    const client = new Redis(redis.url);
    try {
      expect(await client.get(`hearth:rl:t:${hashSecret(secret)}`)).toBe('4');
    } finally {
      client.disconnect();
    }
  });
});
