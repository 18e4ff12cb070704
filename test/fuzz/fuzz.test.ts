// Fuzzes every route: 10,000 generated requests through the real app, and malformed bytes over raw sockets.
// No answer may be a 5xx; every error must be the error body, its request id also in X-Request-Id.
// The seed is printed; FUZZ_SEED=<seed> replays the same requests (FUZZ_RUNS changes how many).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rawRequest } from '../helpers/raw-http.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { badgeGroupRecords, badgeIds, groupIds } from '../../fixtures/badges-groups.js';
import { feedIds, profileIds } from '../../fixtures/community.js';
import { postRecords, postIds } from '../../fixtures/posts.js';
import {
  hostileBodies,
  memberSetWriteOf,
  rawRequestOf,
  requestOf,
  type FuzzContext,
  type FuzzRequest,
} from './requests.js';

const store = testDatabaseUrl ? 'PostgreSQL' : 'SQLite';
const seed = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(process.env['FUZZ_RUNS'] ?? 10_000);
const rawRuns = Math.max(100, Math.round(runs / 20));

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Everything wrong with one answer: a 5xx, or an error that is not exactly the error body with its id in X-Request-Id. */
function problemsOf(answer: Answer, method: string): string[] {
  const problems: string[] = [];
  const requestId = answer.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') problems.push('no X-Request-Id');
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (answer.status < 400 || method === 'HEAD') return problems;
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json'))
    problems.push(`content-type ${String(answer.headers['content-type'])}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [...problems, 'the error body is not JSON'];
  }
  const envelope = body as Record<string, unknown>;
  const keys = Object.keys(envelope);
  const expected = ['success', 'error', 'code', 'request_id', ...('details' in envelope ? ['details'] : [])];
  if (keys.join() !== expected.join()) problems.push(`keys ${keys.join(',')}`);
  if (envelope['success'] !== false || typeof envelope['error'] !== 'string' || typeof envelope['code'] !== 'string')
    problems.push('not the error body');
  if (envelope['request_id'] !== requestId) problems.push('request_id differs from X-Request-Id');
  const details = envelope['details'];
  if (
    details !== undefined &&
    !(Array.isArray(details) && details.every((d) => typeof d?.field === 'string' && typeof d?.message === 'string'))
  ) {
    problems.push('details are not field/message pairs');
  }
  return problems;
}

/** Runs `work` over `items` with at most `width` at a time. */
async function inParallel<T>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index] as T, index);
      }
    }),
  );
}

let t: TestApp;
let context: FuzzContext;
let hostileWriter: string;

beforeAll(async () => {
  t = await createTestApp();
  const community = await t.community('fuzz');
  await t.importRecords(community, [...postRecords, ...badgeGroupRecords]);
  context = {
    readToken: await t.token(community, ['read']),
    writeToken: await t.token(community, ['read', 'members:write']),
    eventIds: ['evdstcross01', 'evongoing001', 'evdraft00001', 'evberlin0001'],
    postIds: Object.values(postIds),
    feedIds: [...Object.values(feedIds), 'home', profileIds.ada],
    badgeIds: [...Object.values(badgeIds), groupIds.organizers],
    groupIds: [...Object.values(groupIds), badgeIds.speaker],
  };
  hostileWriter = await t.token(community, ['read', 'members:write', 'events:write']);
  console.log(`[fuzz ${store}] seed ${seed}: FUZZ_SEED=${seed} replays these requests`);
}, 60_000);
afterAll(() => t.close());

describe(`fuzzing every route (${store})`, () => {
  it(`answers ${runs} generated requests without a 5xx, every error in the error body`, async () => {
    const requests: FuzzRequest[] = fc.sample(requestOf(context), { seed, numRuns: runs });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    await inParallel(requests, 8, async (request, index) => {
      const res = await t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const problems = problemsOf({ status: res.statusCode, headers: res.headers, body: res.body }, request.method);
      if (problems.length > 0 && failures.length < 20) {
        failures.push(
          `#${index} ${request.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)} ${String(request.payload ?? '').slice(0, 100)} -> ${res.statusCode} ${res.body.slice(0, 200)}: ${problems.join('; ')}`,
        );
      }
    });
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((n, [, count]) => n + count, 0);
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(
      `[fuzz ${store}] seed ${seed}: ${requests.length} requests, 5xx: ${fiveHundreds}, envelope misses: ${failures.length}; ${byStatus}`,
    );
    expect(failures, `seed ${seed}`).toEqual([]);
    expect(requests.length).toBe(runs);
  }, 120_000);

  const writeRuns = Math.max(200, Math.round(runs / 10));
  it(`answers ${writeRuns} generated badge and group writes without a 5xx, every error in the error body`, async () => {
    const requests = fc.sample(memberSetWriteOf(context), { seed, numRuns: writeRuns });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    await inParallel(requests, 8, async (request, index) => {
      const res = await t.app.inject({
        method: request.method as 'POST',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const problems = problemsOf({ status: res.statusCode, headers: res.headers, body: res.body }, request.method);
      if (problems.length > 0 && failures.length < 20)
        failures.push(
          `#${index} ${request.method} ${request.url.slice(0, 120)} ${String(request.payload).slice(0, 100)} -> ${res.statusCode} ${res.body.slice(0, 200)}: ${problems.join('; ')}`,
        );
    });
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(`[fuzz ${store}] seed ${seed}: ${requests.length} badge and group writes; ${byStatus}`);
    expect(failures, `seed ${seed}`).toEqual([]);
    // The writes got past validation to their rules and rows, and to unknown records.
    expect([200, 400, 404].map((status) => (statuses.get(status) ?? 0) > 0)).toEqual([true, true, true]);
  }, 120_000);

  // Deep and wide JSON and lone surrogates answered 500 (issue 35): every one on every write route that takes a body,
  // with and without an Idempotency-Key (whose fingerprint walks the body too).
  it(`answers ${hostileBodies.length} hostile bodies on every write route without a 5xx`, async () => {
    const routes: [string, string][] = [
      ['POST', '/admin/v0/members'],
      ['POST', '/admin/v0/calendar_events'],
      ['PATCH', `/admin/v0/calendar_events/${context.eventIds[0]}`],
      ['POST', `/admin/v0/badges/${badgeIds.speaker}/assign`],
      ['PUT', `/admin/v0/groups/${groupIds.organizers}/members`],
    ];
    const requests = routes.flatMap(([method, url]) =>
      hostileBodies.flatMap((payload, index) => [
        { method, url, payload, headers: {} },
        { method, url, payload, headers: { 'idempotency-key': `hostile-${method}-${index}` } },
      ]),
    );
    const failures: string[] = [];
    let fiveHundreds = 0;
    await inParallel(requests, 4, async (request) => {
      const res = await t.app.inject({
        method: request.method as 'POST',
        url: request.url,
        headers: {
          authorization: `Bearer ${hostileWriter}`,
          'content-type': 'application/json',
          ...request.headers,
        },
        payload: request.payload,
      });
      if (res.statusCode >= 500) fiveHundreds++;
      const problems = problemsOf({ status: res.statusCode, headers: res.headers, body: res.body }, request.method);
      if (problems.length > 0 && failures.length < 20)
        failures.push(
          `${request.method} ${request.url} ${request.payload.slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}: ${problems.join('; ')}`,
        );
    });
    console.log(`[fuzz ${store}] ${requests.length} hostile bodies on write routes, 5xx: ${fiveHundreds}`);
    expect(failures).toEqual([]);
    expect(fiveHundreds).toBe(0);
  }, 120_000);

  it(`answers ${rawRuns} malformed raw requests with the error body, or closes the connection`, async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const inputs = fc.sample(rawRequestOf(context), { seed, numRuns: rawRuns });
    const failures: string[] = [];
    let answered = 0;
    let closed = 0;
    await inParallel(inputs, 8, async (bytes, index) => {
      // Half-close after sending: the server sees the end of the request at once instead of waiting for more.
      const answer = await rawRequest(port, [bytes], { timeoutMs: 3000, endAfterSend: true });
      // Nothing, or only a `100 Continue` for a body that never came: the connection was closed, as it should be.
      if (answer.text === '' || (answer.status === 0 && /^HTTP\/1\.1 100 Continue\r\n\r\n$/.test(answer.text))) {
        closed++;
        return;
      }
      answered++;
      const problems =
        answer.status === 0
          ? ['not an HTTP answer']
          : problemsOf(answer, bytes.toString('latin1').startsWith('HEAD') ? 'HEAD' : 'GET');
      if (problems.length > 0 && failures.length < 20)
        failures.push(
          `#${index} ${JSON.stringify(bytes.toString('latin1').slice(0, 160))} -> ${answer.text.slice(0, 300)}: ${problems.join('; ')}`,
        );
    });
    console.log(
      `[fuzz ${store}] seed ${seed}: ${inputs.length} raw requests, ${answered} answered, ${closed} closed without an answer, envelope misses: ${failures.length}`,
    );
    expect(failures, `seed ${seed}`).toEqual([]);
  }, 120_000);
});
