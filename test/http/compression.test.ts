// Compressed answers (issue 36, item 7): brotli and gzip for answers of 1 KB and more to clients that accept them,
// with their headers exact, decoding to the identity bytes; a cached answer compressed once per coding; ETags and 304s.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, feedIds, profileIds } from '../../fixtures/community.js';
import { postIds, postRecords } from '../../fixtures/posts.js';
import { loadConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The default app (answers cached) and one without the answer cache: every answer compressed as it leaves. */
let cached: TestApp;
let uncached: TestApp;
let token: string;
let uncachedToken: string;
let writer: string;
/** The cached app's community of the fixtures. */
let community: string;

const list = '/admin/v0/feeds/home/posts';
const post = `/admin/v0/posts/${postIds.prose}`;
const event = '/admin/v0/calendar_events/evberlin0001';
/** A post whose answer is under 1 KB. */
const smallPost = `/admin/v0/posts/${postIds.tieA}`;

beforeAll(async () => {
  cached = await createTestApp();
  uncached = await createTestApp({ config: { answerCacheBytes: 0 } });
  ({ community, token } = await cached.seed('squeeze', postRecords));
  writer = await cached.token(community, ['read', 'events:write']);
  ({ token: uncachedToken } = await uncached.seed('squeeze', postRecords));
});
afterAll(async () => {
  await cached?.close();
  await uncached?.close();
});

const send = (t: TestApp, path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${t === cached ? token : uncachedToken}`, ...headers },
  });

function decoded(answer: LightMyRequestResponse): Buffer {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.rawPayload);
  if (coding === 'gzip') return gunzipSync(answer.rawPayload);
  if (coding === undefined) return answer.rawPayload;
  throw new Error(`unexpected content-encoding ${String(coding)}`);
}

/** The headers compression may touch, and the ETag it must not. */
const marks = (answer: LightMyRequestResponse) => ({
  status: answer.statusCode,
  encoding: answer.headers['content-encoding'],
  vary: answer.headers['vary'],
  length: answer.headers['content-length'],
  type: answer.headers['content-type'],
  etag: answer.headers['etag'],
});

/** compressed forms made by the answer cache, from /metrics. */
async function compressions(t: TestApp): Promise<{ br: number; gzip: number }> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const count = (coding: string) =>
    Number(
      new RegExp(`^hearth_answer_cache_compressions_total\\{encoding="${coding}"\\} (\\d+)$`, 'm').exec(text)?.[1],
    );
  return { br: count('br'), gzip: count('gzip') };
}

describe('compressed answers', () => {
  it('answers a list, a post and an event in brotli and gzip, cached or not, decoding to the identity bytes', async () => {
    for (const t of [cached, uncached]) {
      for (const path of [list, post, event]) {
        const identity = await send(t, path);
        // Sent as it is, it still varies with Accept-Encoding: a shared cache must not hand it to a client asking br.
        expect(marks(identity)).toEqual({
          status: 200,
          encoding: undefined,
          vary: 'accept-encoding',
          length: String(identity.rawPayload.length),
          type: 'application/json; charset=utf-8',
          etag: expect.stringMatching(/^"/),
        });
        expect(identity.rawPayload.length).toBeGreaterThan(1024);
        for (const coding of ['br', 'gzip']) {
          // The cached app's first ask compresses the kept answer, its second takes the kept form.
          for (let i = 0; i < 2; i++) {
            const answer = await send(t, path, { 'accept-encoding': coding });
            expect(marks(answer)).toEqual({
              status: 200,
              encoding: coding,
              vary: 'accept-encoding',
              length: String(answer.rawPayload.length),
              type: 'application/json; charset=utf-8',
              etag: identity.headers['etag'],
            });
            expect(decoded(answer).equals(identity.rawPayload)).toBe(true);
            expect(answer.rawPayload.length).toBeLessThan(identity.rawPayload.length / 2);
          }
        }
      }
    }
  });

  it('answers the same, headers and decoded bytes, whether the answer was cached or not', async () => {
    for (const path of [list, post, event])
      for (const coding of ['br', 'gzip']) {
        const [fromCache, made] = await Promise.all([
          send(cached, path, { 'accept-encoding': coding }),
          send(uncached, path, { 'accept-encoding': coding }),
        ]);
        expect([fromCache.headers['content-encoding'], made.headers['content-encoding']]).toEqual([coding, coding]);
        expect(decoded(fromCache).toString()).toBe(decoded(made).toString());
        expect(marks(fromCache)).toEqual({
          ...marks(made),
          length: String(fromCache.rawPayload.length),
          etag: expect.any(String),
        });
      }
  });

  it('leaves answers under 1 KB as they are, and compresses those from 1 KB', async () => {
    for (const t of [cached, uncached]) {
      for (const path of [smallPost, '/admin/v0/api_key/me']) {
        const identity = await send(t, path);
        const asked = await send(t, path, { 'accept-encoding': 'br, gzip' });
        expect(identity.rawPayload.length).toBeLessThan(1024);
        expect([identity.headers['vary'], identity.headers['content-encoding']]).toEqual([undefined, undefined]);
        expect(marks(asked)).toEqual(marks(identity));
        expect(asked.body).toBe(identity.body);
      }
      // 1,446 bytes: just over.
      const justOver = await send(t, `/admin/v0/posts/${postIds.plain}`, { 'accept-encoding': 'br, gzip' });
      expect([justOver.headers['content-encoding'], decoded(justOver).length]).toEqual(['br', 1446]);
    }
  });

  it('sends a page over 64 KB in its kept form, made once off the event loop, or streamed when not cached', async () => {
    const words = ['hearth', 'meetup', 'garden', 'river', 'lantern', 'harvest', 'orchard', 'kettle', 'compass'];
    const many = Array.from({ length: 40 }, (_, i) => ({
      kind: 'post',
      id: `postbig${String(i).padStart(5, '0')}`,
      created_at: `2026-03-05T10:${String(i).padStart(2, '0')}:00Z`,
      title: `A long post ${i}`,
      feed_id: feedIds.general,
      author_profile_id: profileIds.ada,
      body_plaintext: Array.from({ length: 300 }, (_, w) => words[(w * 7 + i) % words.length]).join(' '),
    }));
    const path = '/admin/v0/feeds/home/posts?per_page=40';
    for (const t of [cached, uncached]) {
      const { token: secret } = await t.seed('bigpage', [...baseRecords, ...many]);
      const ask = (headers: Record<string, string> = {}) =>
        t.app.inject({ url: path, headers: { authorization: `Bearer ${secret}`, ...headers } });
      const identity = await ask();
      expect(identity.rawPayload.length).toBeGreaterThan(64 * 1024);
      const before = await compressions(t);
      const answers = [await ask({ 'accept-encoding': 'br' }), await ask({ 'accept-encoding': 'br' })];
      for (const answer of answers) {
        expect(marks(answer)).toEqual({
          ...marks(identity),
          encoding: 'br',
          vary: 'accept-encoding',
          // Kept: its exact length; made as it leaves: streamed, chunked.
          length: t === cached ? String(answer.rawPayload.length) : undefined,
        });
        expect(decoded(answer).equals(identity.rawPayload)).toBe(true);
      }
      expect(await compressions(t)).toEqual(t === cached ? { ...before, br: before.br + 1 } : before);
    }
  });

  it("honours the client's Accept-Encoding and its weights, alike on both ways out", async () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['GZIP', 'gzip'],
      ['x-gzip', 'gzip'],
      ['deflate', undefined],
      ['*', 'br'],
      // The plugin alone would read `*` as gzip here, though gzip is refused.
      ['gzip;q=0, *', 'br'],
      ['*;q=0', undefined],
      ['br;q=0, gzip;q=0', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['gzip;q=2', undefined],
      ['br;q=0.001', 'br'],
    ];
    for (const t of [cached, uncached])
      for (const path of [list, post]) {
        const identity = await send(t, path);
        const got = [];
        for (const [header] of cases) {
          const answer = await send(t, path, header === undefined ? {} : { 'accept-encoding': header });
          expect(decoded(answer).equals(identity.rawPayload)).toBe(true);
          expect(answer.headers['vary']).toBe('accept-encoding');
          got.push([header, answer.headers['content-encoding']]);
        }
        expect(got).toEqual(cases);
      }
  });

  it('compresses a cached answer once per coding, and again once the store has changed', async () => {
    const path = '/admin/v0/calendar_events/evdstcross01';
    const before = await compressions(cached);
    const answers: LightMyRequestResponse[] = [];
    for (const coding of ['br', 'br', 'gzip', 'br', 'gzip', 'gzip;q=1, br;q=0.5'])
      answers.push(await send(cached, path, { 'accept-encoding': coding }));
    expect(await compressions(cached)).toEqual({ br: before.br + 1, gzip: before.gzip + 1 });
    expect(answers.map((a) => a.rawPayload.equals((answers[0] ?? expect.unreachable()).rawPayload))).toEqual([
      true,
      true,
      false,
      true,
      false,
      false,
    ]);
    expect(answers[5]?.rawPayload.equals(answers[2]?.rawPayload ?? Buffer.alloc(0))).toBe(true);

    // A client sends back the ETag it got with a compressed answer: If-Match holds, and the change drops the kept forms.
    const patched = await cached.app.inject({
      method: 'PATCH',
      url: path,
      headers: {
        authorization: `Bearer ${writer}`,
        'content-type': 'application/json',
        'if-match': String(answers[0]?.headers['etag']),
      },
      payload: JSON.stringify({ location: 'Compressed Hall' }),
    });
    expect(patched.statusCode).toBe(200);
    const after = await send(cached, path, { 'accept-encoding': 'br' });
    expect(JSON.parse(decoded(after).toString()).data.location).toBe('Compressed Hall');
    expect(await compressions(cached)).toEqual({ br: before.br + 2, gzip: before.gzip + 1 });
  });

  it('answers If-None-Match with the ETag of a compressed answer with the same 304 as ever', async () => {
    for (const t of [cached, uncached])
      for (const path of [list, post]) {
        const compressed = await send(t, path, { 'accept-encoding': 'br' });
        expect(compressed.headers['content-encoding']).toBe('br');
        const etag = String(compressed.headers['etag']);
        for (const ask of [{ 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }, {}] as Record<
          string,
          string
        >[]) {
          const answer = await send(t, path, { ...ask, 'if-none-match': etag });
          // RFC 9110 15.4.5: a 304 carries the Vary its 200 would.
          expect([answer.statusCode, answer.headers['content-encoding'], answer.headers['vary'], answer.body]).toEqual([
            304,
            undefined,
            'accept-encoding',
            '',
          ]);
          expect(answer.headers['etag']).toBe(etag);
        }
      }
  });

  it('marks a calendar that may be compressed with Vary, sent as it is, compressed or 304', async () => {
    const path = '/admin/v0/calendar_events.ics';
    const identity = await send(cached, path);
    const br = await send(cached, path, { 'accept-encoding': 'br' });
    const again = await send(cached, path, {
      'accept-encoding': 'identity',
      'if-none-match': String(br.headers['etag']),
    });
    expect(identity.rawPayload.length).toBeGreaterThan(1024);
    expect([identity, br, again].map((a) => [a.statusCode, a.headers['content-encoding'], a.headers['vary']])).toEqual([
      [200, undefined, 'accept-encoding'],
      [200, 'br', 'accept-encoding'],
      [304, undefined, 'accept-encoding'],
    ]);
    expect(decoded(br).equals(identity.rawPayload)).toBe(true);
  });

  it('answers HEAD with the headers of the identity answer, compressing nothing', async () => {
    for (const t of [cached, uncached]) {
      const identity = await send(t, list);
      const get = await send(t, list, { 'accept-encoding': 'br' });
      const head = await send(t, list, { 'accept-encoding': 'br' }, 'HEAD');
      expect([head.statusCode, head.body, marks(head)]).toEqual([200, '', marks(identity)]);
      expect(head.headers['vary']).toBe('accept-encoding');
      expect(get.headers['content-encoding']).toBe('br');
    }
  });

  it('compresses hosted-name answers (kept ones once), error answers and /metrics too', async () => {
    const hosted = await cached.token(community, ['read'], { fieldNames: 'hosted' });
    for (const path of [list, post]) {
      const auth = { authorization: `Bearer ${hosted}` };
      const hostedPlain = await cached.app.inject({ url: path, headers: auth });
      const before = await compressions(cached);
      const hostedBr = [];
      for (let i = 0; i < 3; i++)
        hostedBr.push(await cached.app.inject({ url: path, headers: { ...auth, 'accept-encoding': 'br' } }));
      // The hosted form is kept beside the spec answer, and compressed once.
      expect(await compressions(cached)).toEqual({ ...before, br: before.br + 1 });
      for (const answer of hostedBr) {
        expect(marks(answer)).toEqual({
          ...marks(hostedPlain),
          encoding: 'br',
          vary: 'accept-encoding',
          length: String(answer.rawPayload.length),
        });
        expect(String(answer.headers['etag'])).toMatch(/\.hosted"$/);
        expect(decoded(answer).toString()).toBe(hostedPlain.body);
      }
    }

    // An event create wrong in every field: the 400 lists twenty findings, well over 1 KB.
    const wrong = (headers: Record<string, string>) =>
      cached.app.inject({
        method: 'POST',
        url: '/admin/v0/calendar_events',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({
          title: 1,
          start_date: 1,
          end_date: 1,
          hosts: [1, 1, 1, 1, 1],
          speakers: [1, 1, 1, 1, 1],
          tags: [1, 1, 1, 1, 1],
          location: 1,
          link: 1,
        }),
      });
    const error = await wrong({ 'accept-encoding': 'gzip' });
    const plainError = await wrong({});
    expect([error.statusCode, error.headers['content-encoding'], plainError.rawPayload.length > 1024]).toEqual([
      400,
      'gzip',
      true,
    ]);
    expect(JSON.parse(decoded(error).toString())).toEqual({
      ...JSON.parse(plainError.body),
      request_id: error.headers['x-request-id'],
    });

    const metrics = await cached.app.inject({ url: '/metrics', headers: { 'accept-encoding': 'gzip' } });
    expect([metrics.statusCode, metrics.headers['content-encoding'], metrics.headers['vary']]).toEqual([
      200,
      'gzip',
      'accept-encoding',
    ]);
    expect(decoded(metrics).toString()).toMatch(/^hearth_answer_cache_hits_total \d+$/m);
  });

  it('compresses nothing with COMPRESSION=false (a proxy in front compresses)', async () => {
    expect([loadConfig({}).compression, loadConfig({ COMPRESSION: 'false' }).compression]).toEqual([true, false]);
    const plain = await createTestApp({ config: { compression: false } });
    try {
      const { token: secret } = await plain.seed('plain', postRecords);
      for (const path of [list, post]) {
        const auth = { authorization: `Bearer ${secret}` };
        const identity = await plain.app.inject({ url: path, headers: auth });
        const asked = await plain.app.inject({ url: path, headers: { ...auth, 'accept-encoding': 'br, gzip' } });
        expect(marks(asked)).toEqual(marks(identity));
        expect(asked.body).toBe(identity.body);
        expect(identity.rawPayload.length).toBeGreaterThan(1024);
        expect(identity.headers['vary']).toBeUndefined();
        // The same request to the default app is compressed.
        const compressed = await send(cached, path, { 'accept-encoding': 'br, gzip' });
        expect([compressed.headers['content-encoding'], decoded(compressed).toString()]).toEqual([
          'br',
          (await send(cached, path)).body,
        ]);
      }
    } finally {
      await plain.close();
    }
  });
});
