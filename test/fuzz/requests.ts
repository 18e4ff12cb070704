// Generators of hostile requests for the fuzz test: every route, every parameter, with values chosen to
// break parsers (exponents, NUL, long text, bad encodings, wrong types), and raw bytes for the HTTP parser.
import fc from 'fast-check';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface FuzzContext {
  readToken: string;
  writeToken: string;
  eventIds: string[];
  postIds: string[];
  feedIds: string[];
  /** Ids of badges and groups, each with a near miss of another kind (the other's ids). */
  badgeIds: string[];
  groupIds: string[];
}

const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);

/** Percent-encodes any text, a lone surrogate included (as U+FFFD, which is what a client would send). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** Text that breaks things: empty, NUL, control characters, non-BMP, very long, SQL and search syntax. */
const nastyText = fc.oneof(
  oneOf(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0001\u001f',
    '\u202e',
    '😀',
    '\ud83d',
    '%',
    '%00',
    '%zz',
    "'",
    '"',
    '\\',
    ';--',
    "' OR 1=1 --",
    'NULL',
    'null',
    'undefined',
  ),
  oneOf(
    '"unclosed',
    '-',
    '--',
    'OR',
    'a OR',
    '"a" -b OR',
    '*',
    '(',
    ')',
    'NEAR(a b)',
    'a:b',
    '^',
    '~',
    '<mark>',
    '&amp;',
    'é',
    'İ',
    'ß',
    'ﬁ',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 400 }),
  fc.integer({ min: 250, max: 2100 }).map((n) => 'x'.repeat(n)),
);

/** Numbers spelled every way a parser might take them. */
const nastyNumber = fc.oneof(
  oneOf(
    '0',
    '1',
    '10',
    '100',
    '101',
    '1000000',
    '1000001',
    '-1',
    '-0',
    '00',
    '007',
    '1.0',
    '1.5',
    '1e2',
    '1e309',
    '1e400',
    '-1e400',
    '0x10',
    '+5',
    ' 5',
    '5 ',
    'Infinity',
    'NaN',
    '',
  ),
  oneOf('9007199254740993', '99999999999999999999999', '0b1', '1_000', '٣', '１'),
  fc.integer().map(String),
  fc.double().map(String),
);

const dateText = fc.oneof(
  oneOf(
    '2026-03-10',
    '2026-03-10T09:00:00-07:00',
    '2026-02-30',
    '2026-13-01',
    '0000-01-01',
    '9999-12-31T23:59:59Z',
    '2026-03-10T25:00:00',
    '2026-03-10T10:00:00+24:00',
  ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  nastyText,
);

const bool = fc.oneof(oneOf('true', 'false', 'TRUE', '1', '0', 'yes', ''), nastyText);

/** A query string: known parameters with good and bad values, unknown ones, repeats and raw percent garbage. */
function queryOf(context: FuzzContext) {
  const pair = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(oneOf('page', 'per_page'), nastyNumber) },
    fc.tuple(
      oneOf('time_filter', 'status', 'sort', 'type'),
      fc.oneof(
        oneOf(
          'upcoming',
          'past',
          'draft',
          'needs_approval',
          'published',
          'oldest',
          'newest',
          'most-recent-activity',
          'post',
          'comment',
        ),
        nastyText,
      ),
    ),
    fc.tuple(fc.constant('date_filter'), dateText),
    fc.tuple(oneOf('published_to_site', 'is_unlisted', 'highlight'), bool),
    fc.tuple(fc.constant('feed_id'), fc.oneof(oneOf(...context.feedIds), nastyText)),
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constant('q'),
        fc.oneof(oneOf('welcome', 'hello world', '"hot dogs" -mustard', 'café OR coffee'), nastyText),
      ),
    },
    fc.tuple(fc.string({ maxLength: 10 }), nastyText),
  );
  return fc.array(pair, { maxLength: 6 }).chain((pairs) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')) },
      // Percent signs and bytes as they come, unencoded.
      {
        weight: 1,
        arbitrary: fc.constant(
          pairs
            .map(([k, v]) => `${k}=${v}`)
            .join('&')
            .replace(/[\s#]/g, ''),
        ),
      },
    ),
  );
}

/** A path segment for an id: known ids, near misses, garbage, encodings, over 100 characters. */
function segmentOf(known: string[]) {
  return fc.oneof(
    { weight: known.length > 0 ? 3 : 0, arbitrary: known.length > 0 ? oneOf(...known) : fc.constant('x') },
    oneOf(
      'zzzzzzzzzzzz',
      'ZZZZZZZZZZZZ',
      'short',
      'home',
      'HOME',
      '..',
      '.',
      '%2e%2e',
      '%00',
      '%E0%A4%A',
      '%',
      '%zz',
      'a%2Fb',
      '00000000-0000-4000-8000-000000000000',
      '',
    ),
    fc.string({ maxLength: 30 }).map(encode),
    fc.integer({ min: 99, max: 300 }).map((n) => 'a'.repeat(n)),
  );
}

function pathOf(context: FuzzContext) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('/admin/v0/calendar_events') },
    { weight: 3, arbitrary: segmentOf(context.eventIds).map((id) => `/admin/v0/calendar_events/${id}`) },
    { weight: 3, arbitrary: segmentOf(context.feedIds).map((id) => `/admin/v0/feeds/${id}/posts`) },
    { weight: 3, arbitrary: segmentOf(context.postIds).map((id) => `/admin/v0/posts/${id}`) },
    { weight: 4, arbitrary: fc.constant('/admin/v0/search') },
    { weight: 3, arbitrary: fc.constant('/admin/v0/members') },
    { weight: 2, arbitrary: oneOf('/admin/v0/badges', '/admin/v0/groups') },
    { weight: 2, arbitrary: segmentOf(context.badgeIds).map((id) => `/admin/v0/badges/${id}`) },
    { weight: 3, arbitrary: segmentOf(context.badgeIds).map((id) => `/admin/v0/badges/${id}/assign`) },
    { weight: 2, arbitrary: segmentOf(context.groupIds).map((id) => `/admin/v0/groups/${id}`) },
    { weight: 3, arbitrary: segmentOf(context.groupIds).map((id) => `/admin/v0/groups/${id}/members`) },
    oneOf(
      '/healthz',
      '/readyz',
      '/admin/v0/openapi.json',
      '/docs',
      '/docs/',
      '/docs/static/index.html',
      '/docs/json',
      '/docs/nope.js',
      '/',
      '/admin',
      '/admin/v0',
      '/admin/v0/',
      '/admin/v1/posts',
      '//admin/v0/posts',
      '/admin/v0/calendar_events/',
      '/ADMIN/V0/calendar_events',
    ),
    segmentOf([]).map((segment) => `/admin/v0/${segment}`),
    fc.string({ maxLength: 30 }).map((s) => `/${encode(s)}`),
  );
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

function headersOf(context: FuzzContext) {
  const authorization = fc.oneof(
    {
      weight: 12,
      arbitrary: oneOf(`Bearer ${context.readToken}`, `Bearer ${context.writeToken}`, `bearer ${context.writeToken}`),
    },
    oneOf(
      '',
      'Bearer',
      'Bearer ',
      'Bearer hth_',
      'Basic dXNlcjpwYXNz',
      `Bearer ${context.readToken}x`,
      `Bearer  ${context.readToken} `,
      `Token ${context.readToken}`,
    ),
    printable.map((s) => `Bearer ${s}`),
    fc.integer({ min: 100, max: 8000 }).map((n) => `Bearer hth_${'a'.repeat(n)}`),
  );
  return fc
    .record(
      {
        // Mostly a token that works, so that requests get past authentication to the routes.
        authorization: fc.option(authorization, { nil: '', freq: 10 }),
        'content-type': oneOf(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          'garbage',
          '',
        ),
        'x-request-id': fc.oneof(oneOf('req-1', 'a'.repeat(129), 'bad id', '<script>'), printable),
        'if-none-match': fc.oneof(oneOf('*', '"x"', 'W/"x"', '"', ''), printable),
        'idempotency-key': fc.oneof(oneOf('key-1', '', ' ', 'k'.repeat(300)), printable),
        accept: oneOf('application/json', 'text/html', '*/*'),
      },
      { requiredKeys: ['authorization'] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== '')));
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const eventBody = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  hosts: ['ada@example.com'],
  description: { text: 'Talks and pizza' },
};
const memberBody = { email: 'fuzz@example.com', full_name: 'Fuzz Member' };
const usersBody = { users: ['U0ADA00001', 'U0GRACE001'] };
const loneSurrogates = ['\ud800', '\udfff', 'a\udbffb', '\ude00\ud83d', 'x'.repeat(300) + '\ud83d'];

/**
 * Bodies built to hurt the write routes (issue 35): nesting far past the stack's depth where rich text goes,
 * arrays far past their bounds, lone surrogates in every text field of an event and a member.
 */
export const hostileBodies: string[] = [
  ...[65, 4_500, 20_000].flatMap((depth) => [
    `${JSON.stringify(eventBody).slice(0, -1)},"description":{"blocks":[{"type":"rich_text","elements":${nested(depth)}}]}}`,
    `{"recap":{"blocks":[{"type":"rich_text","elements":[${nested(depth)}]}]}}`,
    `{"email":"deep@example.com","full_name":"Deep One","extra":${nested(depth)}}`,
    `{"a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    nested(depth),
  ]),
  JSON.stringify({ ...eventBody, hosts: Array<number>(31_000).fill(1) }),
  JSON.stringify({ ...eventBody, description: { blocks: Array<number>(5_000).fill(1) } }),
  JSON.stringify({ ...eventBody, tags: Array<string>(10_000).fill(''), speakers: Array<null>(10_000).fill(null) }),
  JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`f${i}`, i]))),
  JSON.stringify(Array<number>(30_000).fill(0)),
  JSON.stringify({ users: Array<string>(40_000).fill('U0ADA00001') }),
  JSON.stringify({ users: Array.from({ length: 1000 }, (_, i) => `U${'x'.repeat(60)}${i}`) }),
  `{"users":${nested(200)}}`,
  ...loneSurrogates.flatMap((lone) => [
    ...Object.keys(eventBody).map((field) => JSON.stringify({ ...eventBody, [field]: lone })),
    JSON.stringify({ ...eventBody, hosts: [lone] }),
    JSON.stringify({ ...eventBody, description: { text: lone } }),
    JSON.stringify({ ...eventBody, location: lone, external_speakers: lone, webhook_custom_metadata: lone }),
    JSON.stringify({
      ...eventBody,
      description: { blocks: [{ type: lone, elements: [{ type: 'text', text: lone }] }] },
    }),
    JSON.stringify({ ...eventBody, [lone]: 1 }),
    JSON.stringify({ location: lone }),
    ...Object.keys(memberBody).map((field) => JSON.stringify({ ...memberBody, [field]: lone })),
    JSON.stringify({ users: [lone, 'U0ADA00001'] }),
    JSON.stringify({ ...usersBody, [lone]: [lone] }),
    JSON.stringify({ ...memberBody, avatar_url_original: `https://x.example/${lone}` }),
  ]),
];

/** Bodies near the `users` of badge and group writes: chat user ids good and bad, wrong types, extra fields. */
const usersBodyOf = fc
  .record(
    {
      users: fc.oneof(
        fc.array(
          fc.oneof(
            oneOf('U0ADA00001', 'U0GRACE001', 'u0ada00001', 'U0NOBODY01', ''),
            nastyText,
            fc.integer(),
            fc.constant(null),
          ),
          { maxLength: 8 },
        ),
        nastyText,
        fc.constant(null),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      extra: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));

/** JSON bodies near the members and users schemas and far from them, plus text that is not JSON at all. */
const bodyOf = fc.oneof(
  { weight: 3, arbitrary: usersBodyOf },
  // Good ones too, so that the writes get past validation to their rules and their rows.
  { weight: 2, arbitrary: oneOf(JSON.stringify(usersBody), '{"users":[]}', '{"users":["U0LINUS001","U0ADA00001"]}') },
  {
    weight: 5,
    arbitrary: fc
      .record(
        {
          email: fc.oneof(
            oneOf('ada@example.com', 'Ada@Example.COM ', 'not-an-email', '@', 'a@b', `${'a'.repeat(250)}@x.io`),
            nastyText,
            fc.integer(),
            fc.constant(null),
            fc.array(fc.string()),
          ),
          full_name: fc.oneof(
            oneOf('Ada Lovelace', 'Ada', ' Ada  Lovelace ', 'A\u0000 B', 'x '.repeat(60)),
            nastyText,
            fc.integer(),
            fc.constant(null),
            fc.boolean(),
          ),
          avatar_url_original: fc.oneof(
            oneOf(
              'https://img.example.com/a.png',
              'http://',
              'javascript:alert(1)',
              'ftp://x/y',
              `https://x.io/${'a'.repeat(2100)}`,
            ),
            nastyText,
            fc.constant(null),
            fc.integer(),
          ),
          extra: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      )
      .map((body) => JSON.stringify(body)),
  },
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  oneOf(
    '',
    '{',
    '{"email":',
    'null',
    '[]',
    '"string"',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
    '\u0000',
    '{"email":"a@b.co","full_name":"A B"}garbage',
  ),
  fc.integer({ min: 1, max: 3 }).map((depth) => `${'['.repeat(depth * 3000)}${']'.repeat(depth * 3000)}`),
  fc.constant(`{"email":"big@example.com","full_name":"${'x'.repeat(70_000)}"}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
  oneOf(...hostileBodies),
);

export function requestOf(context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant('GET') },
        { weight: 5, arbitrary: fc.constant('POST') },
        oneOf('HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      ),
      path: pathOf(context),
      query: queryOf(context),
      headers: headersOf(context),
      body: fc.option(bodyOf, { nil: undefined, freq: 3 }),
    })
    .map(({ method, path, query, headers, body }) => ({
      method,
      url: query ? `${path}?${query}` : path,
      headers,
      // Bodies mostly on POST; now and then on a GET as well.
      ...(body !== undefined && (method === 'POST' || method === 'PATCH' || method === 'PUT' || query.length % 5 === 0)
        ? { payload: body }
        : {}),
    }));
}

/**
 * Badge and group writes with a token that may make them and JSON bodies, good and bad, so that most get past
 * authentication and parsing to validation, the look-up of members and the rows (an assign and a replace racing).
 */
export function memberSetWriteOf(context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const write = fc.oneof(
    segmentOf(context.badgeIds).map((id) => ['POST', `/admin/v0/badges/${id}/assign`] as const),
    segmentOf(context.groupIds).map((id) => ['PUT', `/admin/v0/groups/${id}/members`] as const),
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: usersBodyOf },
    { weight: 2, arbitrary: oneOf(JSON.stringify(usersBody), '{"users":[]}', '{"users":["U0LINUS001","U0ADA00001"]}') },
    bodyOf,
  );
  const key = fc.option(fc.oneof(oneOf('key-1', 'key-2'), printable), { nil: undefined, freq: 2 });
  return fc.tuple(write, body, key).map(([[method, url], payload, idempotencyKey]) => ({
    method,
    url,
    headers: {
      authorization: `Bearer ${context.writeToken}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    payload,
  }));
}

/** Raw request bytes for the HTTP parser: broken request lines, header bytes, framing and encodings. */
export function rawRequestOf(context: FuzzContext): fc.Arbitrary<Buffer> {
  const token = `Bearer ${context.readToken}`;
  const line = fc.oneof(
    oneOf(
      'GET /healthz HTTP/1.1',
      'GET /admin/v0/calendar_events HTTP/1.1',
      'POST /admin/v0/members HTTP/1.1',
      'GET /admin/v0/posts/%E0%A4%A HTTP/1.1',
    ),
    oneOf(
      'GET / HTTP/9.9',
      'GET  / HTTP/1.1',
      'GET / HTTP/1.1 extra',
      'GET',
      'GET /',
      '/ HTTP/1.1',
      'G\u0000T / HTTP/1.1',
      'GET /\u0000 HTTP/1.1',
      'GET http://x/ HTTP/1.1',
      'CONNECT x:1 HTTP/1.1',
      'GET * HTTP/1.1',
      'BREW /pot HTTP/1.1',
      'GET /healthz HTTP/1.0',
      'GET /healthz',
    ),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  );
  const header = fc.oneof(
    {
      weight: 3,
      arbitrary: oneOf('Host: x', `Authorization: ${token}`, 'Content-Type: application/json', 'Connection: close'),
    },
    oneOf(
      'Host:',
      'Bad Header',
      ': value',
      'X-Nul: a\u0000b',
      'X-CR: a\rb',
      'Content-Length: -1',
      'Content-Length: 1e3',
      'Content-Length: 5',
      'Content-Length: 99999999999',
      'Content-Length: 1, 2',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip',
      'Transfer-Encoding: chunked, identity',
      'Expect: 100-continue',
      'Expect: nothing',
      ' folded: continuation',
      `X-Long: ${'a'.repeat(20_000)}`,
    ),
    fc
      .tuple(
        printable,
        fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
      )
      .map(([k, v]) => `${k}: ${v}`),
  );
  const body = fc.oneof(
    oneOf('', '{"email":"a@b.co","full_name":"A B"}', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\n', '0\r\n\r\n', '{'),
    fc.string({ maxLength: 80 }),
  );
  return fc
    .record({
      line,
      headers: fc.array(header, { maxLength: 6 }),
      body,
      terminator: oneOf('\r\n\r\n', '\n\n', '\r\n', ''),
    })
    .map(({ line, headers, body, terminator }) =>
      Buffer.from(`${[line, ...headers].join('\r\n')}${terminator}${body}`, 'latin1'),
    );
}
