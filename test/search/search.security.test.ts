// Search is confined to the token's community, needs the read scope, and answers any text of 1 to 256 characters.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import { comments, searchPosts, searchRecords } from '../fixtures/search.js';
import type { Page } from '../../src/lib/pagination.js';

let t: TestApp;
let acmeToken: string;
let otherToken: string;
let writeOnlyToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const acme = await t.community('acme');
  const other = await t.community('other');
  // Imports interleave, so the two communities' index entries are written in turns.
  await t.importRecords(acme, searchRecords.slice(0, -4));
  await t.importRecords(other, [
    ...baseRecords,
    ...searchPosts.map((p) => ({
      ...p,
      title: `Zeppelin ${p.title}`,
      body_plaintext: `${p.body_plaintext} lighthouse`,
    })),
    {
      kind: 'post',
      id: 'otheronly001',
      created_at: '2025-07-01T00:00:00Z',
      feed_id: feedIds.general,
      title: 'Lighthouse zeppelin',
      body_plaintext: 'canoe',
    },
    ...comments.map((c) => ({ ...c, body_plaintext: 'zeppelin canoe' })),
  ]);
  await t.importRecords(acme, searchRecords.slice(-4));
  acmeToken = await t.token(acme);
  otherToken = await t.token(other);
  writeOnlyToken = await t.token(acme, ['members:write']);
});
afterAll(() => t.close());

type Envelope = Page<{ id: string; title?: string | null; body_plaintext?: string | null; highlight?: string }>;

async function search(token: string, query: string): Promise<Envelope> {
  const res = await t.get(`/admin/v0/search?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('tenancy', () => {
  it("answers each community its own documents under the same ids, and never counts the other's", async () => {
    const acme = await search(acmeToken, 'type=post&q=lighthouse');
    expect(acme.records.map((r) => [r.id, r.title])).toEqual([
      ['srchtitle001', 'Lighthouse keepers'],
      ['srchbody0001', 'Coastal stories'],
    ]);
    expect(acme.total_records).toBe(2);
    const other = await search(otherToken, 'type=post&q=lighthouse&per_page=1');
    expect(other.total_records).toBe(searchPosts.length + 1);
    expect(other.records.map((r) => [r.id, r.title])).toEqual([['otheronly001', 'Lighthouse zeppelin']]);
  });

  it("finds nothing, and counts nothing, of the other community's words", async () => {
    for (const type of ['post', 'comment']) {
      const { records, ...envelope } = await search(acmeToken, `type=${type}&q=zeppelin`);
      expect(records).toEqual([]);
      expect(envelope).toEqual({ page: 0, per_page: 10, count: 0, total_records: 0, total_pages: 0, has_next: false });
    }
    expect((await search(otherToken, 'type=comment&q=zeppelin')).total_records).toBe(2);
    expect((await search(otherToken, 'type=post&q=zeppelin')).total_records).toBe(searchPosts.length + 1);
  });

  it('keeps comment bodies apart too', async () => {
    const acme = await search(acmeToken, 'type=comment&q=canoe');
    expect(acme.records.map((r) => [r.id, r.body_plaintext])).toEqual([
      ['srchcmt00002', 'Canoe trips are fun'],
      ['srchcmt00001', '<script>alert("pwned")</script> The canoe & the kayak'],
    ]);
    expect((await search(otherToken, 'type=comment&q=pwned')).total_records).toBe(0);
  });

  it('answers a community without any document', async () => {
    const empty = await t.token(await t.community('empty'));
    expect((await search(empty, 'type=post&q=lighthouse')).total_records).toBe(0);
    expect((await search(empty, 'type=comment&q=canoe')).total_records).toBe(0);
  });
});

describe('scopes', () => {
  it('answers 401 without a token and 403 without the read scope', async () => {
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/admin/v0/search?type=post&q=a',
      headers: { 'x-request-id': 'req-s' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('unauthorized');
    const res = await t.get('/admin/v0/search?type=post&q=a', writeOnlyToken, { 'x-request-id': 'req-s' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      error: "This operation needs the 'read' scope; the token has: members:write.",
      code: 'insufficient_scope',
      request_id: 'req-s',
    });
  });
});

const envelopeKeys = ['page', 'per_page', 'count', 'total_records', 'total_pages', 'has_next', 'records'];

/** The documented envelope, consistent with itself, holding only the asking community's records. */
function expectEnvelope(
  body: { success: boolean; data: Envelope },
  page: number,
  perPage: number,
  withHighlight: boolean,
): void {
  expect(Object.keys(body)).toEqual(['success', 'data']);
  expect(body.success).toBe(true);
  const { data } = body;
  expect(Object.keys(data)).toEqual(envelopeKeys);
  expect(data.page).toBe(page);
  expect(data.per_page).toBe(perPage);
  expect(data.count).toBe(data.records.length);
  expect(data.count).toBeLessThanOrEqual(perPage);
  expect(data.total_pages).toBe(Math.ceil(data.total_records / perPage));
  expect(data.has_next).toBe(page + 1 < data.total_pages);
  if (page * perPage < data.total_records)
    expect(data.count).toBe(Math.min(perPage, data.total_records - page * perPage));
  else expect(data.count).toBe(0);
  for (const record of data.records) {
    expect(record.id).toMatch(/^(srch|other)[a-z0-9]+$/);
    expect(record.title ?? '').not.toMatch(/^Zeppelin/);
    if (withHighlight) expect(typeof record.highlight).toBe('string');
    else expect(record).not.toHaveProperty('highlight');
  }
}

/** Operators of FTS5 and tsquery, quoting, brackets, SQL, Unicode edge cases and texts of the maximum length. */
const hostile = [
  '"',
  '""',
  '"""',
  '"unclosed phrase',
  'a"b"c',
  '\\"',
  "'",
  "''",
  'OR',
  'AND',
  'NOT',
  'NEAR',
  'NEAR(a b)',
  'NEAR(lighthouse keepers, 3)',
  'a NEAR/3 b',
  'lighthouse OR',
  'OR lighthouse',
  'a OR OR b',
  '-',
  '--',
  '- -',
  '-lighthouse',
  '-"a b"',
  'lighthouse -',
  '*',
  'lighthouse*',
  '*a',
  'pre*fix',
  '^',
  '^lighthouse',
  'a^2',
  ':',
  'title:lighthouse',
  'body:secret',
  '{title}:x',
  '{title body}: lighthouse',
  'a:*',
  'lighthouse:A',
  '(',
  ')',
  '(a',
  'a)',
  '((((lighthouse))))',
  '[a]',
  '{a}',
  '<a>',
  '<script>alert(1)</script>',
  '&',
  '|',
  '!',
  'a & b',
  'a | b',
  '!a',
  '!!lighthouse',
  'a <-> b',
  'a <2> b',
  "'a':*",
  '\\',
  '\\\\',
  '%',
  '_',
  '%_%',
  "'; DROP TABLE posts; --",
  "1' OR '1'='1",
  '" OR 1=1 --',
  'UNION SELECT * FROM tokens',
  'rowid = 1',
  'lighthouse) OR (1=1',
  '$1',
  '?',
  '@@',
  '::tsquery',
  '😀',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  '\u0301',
  '\u200b',
  '\u200d',
  '\ufeff',
  'Ω≈ç√∫',
  'Москва',
  '東京タワー',
  'مرحبا',
  'שלום',
  'ﷺ',
  '\u0000',
  'a\u0000b',
  '\t\n\r',
  'ᚠᛇᚻ',
  'Ⅻ',
  'x²',
  'ǅ',
  'straße',
  'İstanbul',
  '½ ①',
  '𝐀𝐁𝐂',
  'x'.repeat(256),
  'a '.repeat(128),
  `${'-a '.repeat(85)}b`,
  `${'a OR '.repeat(51)}b`,
  '"'.repeat(256),
  '('.repeat(256),
  ')'.repeat(256),
  '-'.repeat(256),
  '*'.repeat(256),
  'é'.repeat(256),
  '😀'.repeat(256),
  'lighthouse '.repeat(23),
  'NOT '.repeat(64),
  'NEAR('.repeat(51),
  '𝐀'.repeat(256),
  `${'"a b" '.repeat(42)}ab`,
  `${'lighthouse OR -keepers '.repeat(11)}x`,
];

describe('hostile queries', () => {
  it('holds only texts of 1 to 256 characters', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(60);
    for (const q of hostile) expect([...q].length, q).toBeGreaterThanOrEqual(1);
    for (const q of hostile) expect([...q].length, q).toBeLessThanOrEqual(256);
  });

  it.each(hostile.map((q) => [JSON.stringify(q).slice(0, 60), q]))(
    '%s answers 200 with the envelope, for posts and comments',
    async (_name, q) => {
      for (const [type, extra, highlight] of [
        ['post', '&highlight=true', true],
        ['comment', '', false],
      ] as const) {
        const res = await t.get(`/admin/v0/search?type=${type}&q=${encodeURIComponent(q)}${extra}`, acmeToken);
        expect(res.statusCode, res.body).toBe(200);
        expectEnvelope(res.json(), 0, 10, highlight);
      }
    },
  );

  it('treats typed operators as words, never as the index syntax', async () => {
    const ids = async (q: string) =>
      (await search(acmeToken, `type=post&q=${encodeURIComponent(q)}`)).records.map((r) => r.id);
    expect(await ids('lighthouse*')).toEqual(['srchtitle001', 'srchbody0001']);
    expect(await ids('title:lighthouse')).toEqual([]);
    expect(await ids('{title body}: lighthouse')).toEqual([]);
    // OR is the one operator users have; "(1=1" is only the phrase "1 1".
    expect(await ids('lighthouse) OR (1=1')).toEqual(['srchtitle001', 'srchbody0001']);
    expect(await ids('lighthouse) AND (1=1')).toEqual([]);
    expect(await ids('NEAR(lighthouse keepers, 3)')).toEqual([]);
    expect(await ids('((((lighthouse))))')).toEqual(['srchtitle001', 'srchbody0001']);
    expect(await ids('<script>alert(1)</script>')).toEqual([]);
  });
});

describe('property: any text of 1 to 256 characters', () => {
  const operatorUnit = fc.constantFrom(
    '"',
    '-',
    '(',
    ')',
    '*',
    '^',
    ':',
    '{',
    '}',
    '\\',
    "'",
    '+',
    ',',
    '.',
    '!',
    '&',
    '|',
    '<',
    '>',
    '%',
    '_',
    ';',
    '=',
    'OR',
    'AND',
    'NOT',
    'NEAR',
    'or',
    ' ',
    ' ',
    '\t',
    'lighthouse',
    'kayak',
    'é',
    'e\u0301',
    '\u0000',
    '😀',
    '\u200d',
    '1',
    'ß',
  );
  const text = fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 256 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 256 }),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 256 }),
      fc.string({ unit: operatorUnit, minLength: 1, maxLength: 120 }),
    )
    .map((q) => [...q].slice(0, 256).join(''))
    .filter((q) => q.length > 0 && !/\p{Cs}/u.test(q));

  it('answers 200 with a valid envelope through the HTTP route', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom('post', 'comment'),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        async (q, type, page, perPage, withHighlight) => {
          const url = `/admin/v0/search?type=${type}&q=${encodeURIComponent(q)}&page=${page}&per_page=${perPage}&highlight=${withHighlight}`;
          const res = await t.get(url, acmeToken);
          expect(res.statusCode, `${JSON.stringify(q)}: ${res.body}`).toBe(200);
          expectEnvelope(res.json(), page, perPage, withHighlight);
        },
      ),
      { numRuns: 200 },
    );
  });
});
