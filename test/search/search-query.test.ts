// Search text translation: exact FTS5 and tsquery outputs, highlighting, and fuzzing against real SQLite and PostgreSQL.
import { SqliteDriver as Database } from '../../src/db/sqlite-driver.js';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { toTsquery } from '../../src/search/postgres-search-query.js';
import { highlight } from '../../src/search/search-highlight.js';
import { isEmptyQuery, parseSearchQuery } from '../../src/search/search-query.js';
import { stem } from '../../src/search/search-stem.js';
import { toFts5Match } from '../../src/search/sqlite-search-query.js';

const fts = (q: string): string | null => toFts5Match(parseSearchQuery(q));
const ts = (q: string): string | null => toTsquery(parseSearchQuery(q))?.text ?? null;
const hl = (text: string, q: string, maxLength?: number): string =>
  highlight(text, parseSearchQuery(q), maxLength === undefined ? {} : { maxLength });

describe('parseSearchQuery → FTS5 and tsquery', () => {
  it.each([
    ['plain words', 'Hello World', '"hello" AND "world"', 'hello & world'],
    ['one word', 'hello', '"hello"', 'hello'],
    ['phrase', '"Quick brown  fox"', '"quick brown fox"', '(quick <-> brown <-> fox)'],
    ['exclusion', 'cats -dogs', '"cats" NOT "dogs"', 'cats & !dogs'],
    ['exclusions after several words', 'a b -c -d', '("a" AND "b") NOT ("c" OR "d")', 'a & b & !c & !d'],
    ['exclusions after one word', 'a -c -d', '"a" NOT ("c" OR "d")', 'a & !c & !d'],
    ['exclusion before the word', '-c a', '"a" NOT "c"', 'a & !c'],
    ['excluded phrase', 'pets -"hot dogs"', '"pets" NOT "hot dogs"', 'pets & !(hot <-> dogs)'],
    ['OR', 'cats OR dogs', '("cats") OR ("dogs")', '(cats) | (dogs)'],
    ['lowercase or is a word', 'cats or dogs', '"cats" AND "or" AND "dogs"', 'cats & or & dogs'],
    [
      'mixed',
      '"big cat" -lion OR dog bird',
      '("big cat" NOT "lion") OR ("dog" AND "bird")',
      '((big <-> cat) & !lion) | (dog & bird)',
    ],
    ['unclosed quote runs to the end', 'say "hello there', '"say" AND "hello there"', 'say & (hello <-> there)'],
    ['stray ORs', 'OR a OR OR b OR', '("a") OR ("b")', '(a) | (b)'],
    ['a group of only exclusions is dropped', 'a OR -b', '"a"', 'a'],
    ['duplicates are dropped', 'a a -b -b', '"a" NOT "b"', 'a & !b'],
    ['a repeated alternative is dropped', 'a OR a', '"a"', 'a'],
    [
      'an alternative of the same clauses in another order is dropped',
      'a -c b OR b a -c OR c',
      '(("a" AND "b") NOT "c") OR ("c")',
      '(a & b & !c) | (c)',
    ],
    ['alternatives that differ by an exclusion are kept', 'a OR a -b', '("a") OR ("a" NOT "b")', '(a) | (a & !b)'],
    ['a hyphenated word is a phrase', 'e-mail', '"e mail"', '(e <-> mail)'],
    ['an excluded hyphenated word is one phrase', 'x -well-known', '"x" NOT "well known"', 'x & !(well <-> known)'],
    ['-OR is an excluded word', 'a -OR', '"a" NOT "or"', 'a & !or'],
    ['-- is one exclusion', 'a --b', '"a" NOT "b"', 'a & !b'],
    ['a - alone separates', 'a - b', '"a" AND "b"', 'a & b'],
    ['a quoted OR is a word', 'a "OR" b', '"a" AND "or" AND "b"', 'a & or & b'],
    ['accents and case: lowercased, accents kept', 'Crème BRÛLÉE', '"crème" AND "brûlée"', 'crème & brûlée'],
    ['decomposed accents are composed', 'cre\u0300me', '"crème"', 'crème'],
    ['digits', 'Windows 11', '"windows" AND "11"', 'windows & 11'],
    ['non-Latin scripts', 'Москва 東京', '"москва" AND "東京"', 'москва & 東京'],
  ])('%s: %j', (_name, q, expectedFts, expectedTs) => {
    expect(fts(q)).toBe(expectedFts);
    expect(ts(q)).toBe(expectedTs);
  });

  it.each([
    ['NEAR(a b, 3)', '"near a" AND "b" AND "3"', '(near <-> a) & b & 3'],
    ['a AND b', '"a" AND "and" AND "b"', 'a & and & b'],
    ['NOT a', '"not" AND "a"', 'not & a'],
    ['pre*', '"pre"', 'pre'],
    ['^start', '"start"', 'start'],
    ['title:secret', '"title secret"', '(title <-> secret)'],
    ['{title body}:x', '"title" AND "body x"', 'title & (body <-> x)'],
    ['a + b', '"a" AND "b"', 'a & b'],
    ["it's", '"it s"', '(it <-> s)'],
    ['a\\"b', '"a" AND "b"', 'a & b'],
    ["a:* & !b | 'c' <-> d", '"a" AND "b" AND "c" AND "d"', 'a & b & c & d'],
    ['a\u0000b 😀 c\u200bd', '"a b" AND "c d"', '(a <-> b) & (c <-> d)'],
  ])('operators typed by the user are only separators: %j', (q, expectedFts, expectedTs) => {
    expect(fts(q)).toBe(expectedFts);
    expect(ts(q)).toBe(expectedTs);
  });

  it.each([
    '-a',
    '-a -"b c"',
    '!!!',
    '...',
    '---',
    '"',
    '""',
    '-',
    '()',
    'OR',
    'OR OR',
    ' ',
    '😀🎉',
    '\u0301',
    '-"" -x',
  ])('matches nothing: %j', (q) => {
    const query = parseSearchQuery(q);
    expect(isEmptyQuery(query)).toBe(true);
    expect(query).toEqual({ groups: [] });
    expect(toFts5Match(query)).toBeNull();
    expect(toTsquery(query)).toBeNull();
  });

  it('builds the AST', () => {
    expect(parseSearchQuery('Big "red dog" -cat OR fish')).toEqual({
      groups: [
        [
          { words: ['big'], negated: false },
          { words: ['red', 'dog'], negated: false },
          { words: ['cat'], negated: true },
        ],
        [{ words: ['fish'], negated: false }],
      ],
    });
  });

  it('lists the positive words of the tsquery', () => {
    expect(toTsquery(parseSearchQuery('a "b c" -d OR a e'))).toEqual({
      text: '(a & (b <-> c) & !d) | (a & e)',
      words: ['a', 'b', 'c', 'e'],
    });
  });
});

describe('stem', () => {
  it.each([
    ['running', 'run'],
    ['runs', 'run'],
    ['run', 'run'],
    ['Running', 'run'],
    ['hoping', 'hope'],
    ['hoped', 'hope'],
    ['agreed', 'agree'],
    ['feed', 'feed'],
    ['sing', 'sing'],
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['pony', 'poni'],
    ['quickly', 'quick'],
    ['connected', 'connect'],
    ['Cafés', 'cafe'],
    ['naïve', 'naive'],
    ['is', 'is'],
    ['東京', '東京'],
    ['1990s', '1990s'],
    ['y'.repeat(41), 'y'.repeat(41)],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});

describe('highlight', () => {
  it('escapes the text and marks only the hits', () => {
    expect(hl('<script>alert("x & y")</script>', 'alert')).toBe(
      '&lt;script&gt;<mark>alert</mark>(&quot;x &amp; y&quot;)&lt;/script&gt;',
    );
    expect(hl('<script>', 'script')).toBe('&lt;<mark>script</mark>&gt;');
    expect(hl("it's <b>bold</b>", 'bold')).toBe('it&#39;s &lt;b&gt;<mark>bold</mark>&lt;/b&gt;');
  });

  it('returns the escaped text when nothing matches', () => {
    expect(hl('a < b', 'zzz')).toBe('a &lt; b');
    expect(hl('a < b', '-a')).toBe('a &lt; b');
  });

  it('matches inflections', () => {
    expect(hl('Running late, she runs.', 'run')).toBe('<mark>Running</mark> late, she <mark>runs</mark>.');
    expect(hl('I run daily', 'running')).toBe('I <mark>run</mark> daily');
    expect(hl('The ponies', 'pony')).toBe('The <mark>ponies</mark>');
  });

  it('ignores case and accents', () => {
    expect(hl('Le Café', 'cafe')).toBe('Le <mark>Café</mark>');
    expect(hl('le CAFE', 'café')).toBe('le <mark>CAFE</mark>');
    expect(hl('Cafe\u0301!', 'CAFE')).toBe('<mark>Cafe\u0301</mark>!');
  });

  it('marks phrase words and words of every alternative, never excluded words', () => {
    expect(hl('hot dogs and cats', '"hot dogs" -cats')).toBe('<mark>hot</mark> <mark>dogs</mark> and cats');
    expect(hl('fish or birds', 'fish OR birds')).toBe('<mark>fish</mark> or <mark>birds</mark>');
    expect(hl('catalog', 'cat')).toBe('catalog');
  });

  it('cuts a long text to a window around the first hit, at spaces', () => {
    const text = `${'lorem '.repeat(80)}Needle here ${'ipsum '.repeat(80)}`;
    expect(hl(text, 'needle')).toBe(`…${'lorem '.repeat(16)}<mark>Needle</mark> here ${'ipsum '.repeat(31)}ipsum…`);
  });

  it('starts at the beginning when there is no hit or the hit is early', () => {
    const text = `${'lorem '.repeat(80)}`;
    expect(hl(text, 'zzz')).toBe(`${'lorem '.repeat(49)}lorem…`);
    expect(hl(`x ${text}`, 'x')).toBe(`<mark>x</mark> ${'lorem '.repeat(48)}lorem…`);
  });

  it('has no cut at the end when the hit is near it', () => {
    const text = `${'lorem '.repeat(80)}needle`;
    expect(hl(text, 'needle')).toBe(`…${'lorem '.repeat(49)}<mark>needle</mark>`);
  });

  it('copes with a huge text', () => {
    const out = hl(`${'y'.repeat(200_000)} ${'yes '.repeat(50_000)}`, 'ye');
    expect(out).toBe(`…${'y'.repeat(99)} ${'<mark>yes</mark> '.repeat(49)}<mark>yes</mark>…`);
  });

  it('honours maxLength', () => {
    expect(hl('one two three four five six', 'four', 10)).toBe('…<mark>four</mark> five…');
  });

  it('cuts text without spaces between characters, never inside a surrogate pair', () => {
    expect(hl(`${'x'.repeat(500)} run`, 'run')).toBe(`…${'x'.repeat(296)} <mark>run</mark>`);
    const out = hl(`${'😀'.repeat(300)}a run`, 'run');
    expect(out).toBe(`…${'😀'.repeat(147)}a <mark>run</mark>`);
    expect(/\p{Cs}/u.test(out)).toBe(false);
  });

  it('never cuts an entity', () => {
    const out = hl(`${'a&b<c '.repeat(100)}needle ${'"\' '.repeat(200)}`, 'needle');
    expect(out.startsWith('…a&amp;b&lt;c ')).toBe(true);
    expect(out.endsWith('&quot;&#39;…')).toBe(true);
    expect(out).toContain('<mark>needle</mark>');
    expect(/&(?!amp;|lt;|gt;|quot;|#39;)/.test(out)).toBe(false);
  });
});

// ---- Properties ----

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
  'OR',
  'AND',
  'NOT',
  'NEAR',
  'or',
  ' ',
  ' ',
  '\t',
  'a',
  'b',
  'é',
  'e\u0301',
  '\u0000',
  '😀',
  '\u200d',
  '1',
);
const queryArb = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 256 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 256 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 256 }),
  fc.string({ unit: operatorUnit, minLength: 1, maxLength: 256 }),
);

const LITERAL = String.raw`"[\p{L}\p{N}\p{M}]+(?: [\p{L}\p{N}\p{M}]+)*"`;
const FTS5_GRAMMAR = new RegExp(String.raw`^(?:${LITERAL}|\(|\)| AND | OR | NOT )+$`, 'u');
const TSQUERY_GRAMMAR = /^(?:[\p{L}\p{N}\p{M}]+|<->|[&|!()]| )+$/u;

const unescapeHtml = (html: string): string =>
  html
    .replace(/<\/?mark>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '',
    );

describe('properties', () => {
  it('any text parses to grammatical FTS5 and tsquery text', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const query = parseSearchQuery(q);
        const match = toFts5Match(query);
        const tsquery = toTsquery(query);
        expect(match === null).toBe(isEmptyQuery(query));
        expect(tsquery === null).toBe(isEmptyQuery(query));
        if (match !== null) expect(match).toMatch(FTS5_GRAMMAR);
        if (tsquery !== null) {
          expect(tsquery.text).toMatch(TSQUERY_GRAMMAR);
          for (const word of tsquery.words) expect(word).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('SQLite FTS5 accepts every MATCH expression', () => {
    const db = new Database(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')");
      const insert = db.prepare('INSERT INTO t (title, body) VALUES (?, ?)');
      insert.run('Running shoes', 'Best shoes for the marathon: or and not near');
      insert.run('Café guide', 'Where to drink coffee in Paris 😀 e\u0301te\u0301');
      insert.run('Hot dogs', 'A recipe for "hot dogs" with mustard * ^ : { }');
      const select = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, 10.0, 1.0)');
      fc.assert(
        fc.property(queryArb, (q) => {
          const match = toFts5Match(parseSearchQuery(q));
          if (match !== null) expect(() => select.all(match)).not.toThrow();
        }),
        { numRuns: 1000 },
      );
    } finally {
      db.close();
    }
  });

  const textUnit = fc.constantFrom(
    'Run',
    'running',
    'café',
    'CAFE',
    'e\u0301',
    '<b>',
    '</mark>',
    '&amp;',
    '&',
    '"',
    "'",
    '😀',
    '\u200d',
    '\u0301',
    ' ',
    '  ',
    '\n',
    'x'.repeat(40),
    'lorem ',
    'OR',
    '-',
    '…',
  );
  const textArb = fc.oneof(
    fc.string({ unit: textUnit, maxLength: 120 }),
    fc.string({ unit: 'grapheme', maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 400 }),
  );
  it('SQLite FTS5 accepts queries far beyond the API length limit', () => {
    const db = new Database(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')");
      const many = Array.from({ length: 600 }, (_, i) => `w${i}`);
      for (const q of [
        `a ${many.map((w) => `-${w}`).join(' ')}`,
        many.join(' OR '),
        many.join(' '),
        many.map((w) => `${w} -x`).join(' OR '),
      ]) {
        const match = toFts5Match(parseSearchQuery(q));
        expect(match).not.toBeNull();
        expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(match)).not.toThrow();
      }
    } finally {
      db.close();
    }
  });

  const highlightQueryArb = fc.oneof(fc.constantFrom('run', 'cafe', 'é', 'x', 'lorem -run', 'b OR mark'), queryArb);

  it('highlight output is escaped text with only <mark> tags, around hits only', () => {
    fc.assert(
      fc.property(textArb, highlightQueryArb, fc.integer({ min: 5, max: 400 }), (text, q, maxLength) => {
        const query = parseSearchQuery(q);
        const out = highlight(text, query, { maxLength });
        const tagsRemoved = out.replace(/<\/?mark>/g, '');
        expect(tagsRemoved).not.toMatch(/[<>]/);
        expect(out).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
        expect(out).not.toMatch(/<mark>[^<]*<mark>|<\/mark>[^<]*<\/mark>|<mark><\/mark>/);
        const stems = new Set(
          query.groups
            .flat()
            .filter((c) => !c.negated)
            .flatMap((c) => c.words.map(stem)),
        );
        for (const [, marked] of out.matchAll(/<mark>([^<]*)<\/mark>/g)) {
          expect(stems.has(stem(unescapeHtml(marked ?? '')))).toBe(true);
        }
        const plain = unescapeHtml(out);
        if (text.length <= maxLength) expect(plain).toBe(text);
        else expect(text).toContain(plain.replace(/^…/, '').replace(/…$/, ''));
      }),
      { numRuns: 1500 },
    );
  });
});

// ---- PostgreSQL (skipped when the test server is unreachable) ----

async function connect(): Promise<pg.Client | null> {
  const client = new pg.Client({
    connectionString: 'postgres://postgres@127.0.0.1:5432/test',
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    client.on('error', () => undefined);
    return client;
  } catch {
    return null;
  }
}

const client = await connect();
afterAll(async () => {
  await client?.end();
});

describe.skipIf(client === null)('PostgreSQL to_tsquery', () => {
  const db = (): pg.Client => {
    if (client === null) throw new Error('no PostgreSQL connection');
    return client;
  };

  it('parses every generated tsquery text', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async (q) => {
        const tsquery = toTsquery(parseSearchQuery(q));
        if (tsquery === null) return;
        await db().query("SELECT to_tsquery('simple', $1), to_tsquery('english', $1)", [tsquery.text]);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['run', [1]],
    ['hot dogs', [3, 4]],
    ['"hot dogs"', [3]],
    ['dogs -"hot dogs"', [4]],
    ['dogs -mustard', [4]],
    ['dogs -mustard -cats', []],
    ['hot -mustard -running', [4]],
    ['coffee OR cats', [2, 4]],
    ['shoe*', [1]],
  ])('matches like the FTS5 expression: %j', async (q, expected) => {
    const tsquery = toTsquery(parseSearchQuery(q));
    const { rows } = await db().query<{ id: number }>(
      `SELECT id FROM (VALUES
         (1, 'Running shoes. Best shoes for the marathon'),
         (2, 'Café guide. Where to drink coffee in Paris'),
         (3, 'Hot dogs. A recipe for hot dogs with mustard'),
         (4, 'Dogs and cats. Pets that are hot right now')) AS d(id, doc)
       WHERE to_tsvector('english', doc) @@ to_tsquery('english', $1) ORDER BY id`,
      [tsquery?.text ?? ''],
    );
    expect(rows.map((row) => row.id)).toEqual(expected);
  });
});

describe('SQLite FTS5 semantics', () => {
  it.each([
    ['run', [1]],
    ['CAFE', [2]],
    ['hot dogs', [3, 4]],
    ['"hot dogs"', [3]],
    ['dogs -"hot dogs"', [4]],
    ['dogs -mustard', [4]],
    ['dogs -mustard -cats', []],
    ['hot -mustard -running', [4]],
    ['coffee OR cats', [2, 4]],
    ['shoe*', [1]],
    ['NEAR(hot dogs)', []],
  ])('%j matches rows %j', (q, expected) => {
    const db = new Database(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')");
      const insert = db.prepare('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)');
      insert.run(1, 'Running shoes', 'Best shoes for the marathon');
      insert.run(2, 'Café guide', 'Where to drink coffee in Paris');
      insert.run(3, 'Hot dogs', 'A recipe for hot dogs with mustard');
      insert.run(4, 'Dogs and cats', 'Pets that are hot right now');
      const rows = db.prepare('SELECT rowid AS id FROM t WHERE t MATCH ? ORDER BY rowid').all(fts(q)) as {
        id: number;
      }[];
      expect(rows.map((row) => row.id)).toEqual(expected);
    } finally {
      db.close();
    }
  });
});
