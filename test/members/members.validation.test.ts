// Every rule of the add-member body, with the exact error body; and body parsing (415, 400, 413).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditRows, membersPath, postMember, profileRows } from './member-requests.js';

let t: TestApp;
let acme: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token } = await t.seed('acme', [], ['members:write']));
});
afterAll(() => t.close());

const valid = { email: 'ada@example.com', full_name: 'Ada Lovelace' };

function invalidBody(...details: [string, string][]) {
  const [first] = details;
  return {
    success: false,
    error: first ? `Invalid body field '${first[0]}': ${first[1]}.` : '',
    code: 'invalid_body',
    request_id: 'req-v',
    details: details.map(([field, message]) => ({ field, message })),
  };
}

const email254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
const url2048 = `https://img.example.com/${'p'.repeat(2048 - 'https://img.example.com/'.length)}`;

const NAME_RULE = 'must be a first and a last name separated by a space';
const AVATAR_RULE = 'must be an http or https URL with a host';

describe('invalid bodies', () => {
  const cases: [string, unknown, ReturnType<typeof invalidBody>][] = [
    ['e-mail missing', { full_name: 'Ada Lovelace' }, invalidBody(['email', "must have required property 'email'"])],
    ['e-mail empty', { ...valid, email: '' }, invalidBody(['email', 'must NOT have fewer than 1 characters'])],
    ['e-mail only spaces', { ...valid, email: '   ' }, invalidBody(['email', 'must NOT have fewer than 1 characters'])],
    [
      'e-mail too long',
      { ...valid, email: `a${email254}` },
      invalidBody(['email', 'must NOT have more than 254 characters']),
    ],
    ['e-mail without @', { ...valid, email: 'ada.example.com' }, invalidBody(['email', 'must match format "email"'])],
    ['e-mail without domain', { ...valid, email: 'ada@' }, invalidBody(['email', 'must match format "email"'])],
    [
      'e-mail without local part',
      { ...valid, email: '@example.com' },
      invalidBody(['email', 'must match format "email"']),
    ],
    [
      'e-mail without a dot in the domain',
      { ...valid, email: 'ada@example' },
      invalidBody(['email', 'must match format "email"']),
    ],
    [
      'e-mail with a space inside',
      { ...valid, email: 'ada lovelace@example.com' },
      invalidBody(['email', 'must match format "email"']),
    ],
    ['e-mail with two @', { ...valid, email: 'ada@@example.com' }, invalidBody(['email', 'must match format "email"'])],
    ['e-mail not a string', { ...valid, email: 42 }, invalidBody(['email', 'must be string'])],
    [
      'full name missing',
      { email: 'ada@example.com' },
      invalidBody(['full_name', "must have required property 'full_name'"]),
    ],
    [
      'full name empty',
      { ...valid, full_name: '' },
      invalidBody(['full_name', 'must NOT have fewer than 1 characters']),
    ],
    [
      'full name only spaces',
      { ...valid, full_name: '    ' },
      invalidBody(['full_name', 'must NOT have fewer than 1 characters']),
    ],
    ['full name of one part', { ...valid, full_name: 'Ada' }, invalidBody(['full_name', NAME_RULE])],
    ['full name of one part between spaces', { ...valid, full_name: '  Ada  ' }, invalidBody(['full_name', NAME_RULE])],
    [
      'full name split by a tab, not a space',
      { ...valid, full_name: 'Ada\tLovelace' },
      invalidBody(['full_name', NAME_RULE]),
    ],
    [
      'full name too long',
      { ...valid, full_name: `Ada ${'L'.repeat(97)}` },
      invalidBody(['full_name', 'must NOT have more than 100 characters']),
    ],
    [
      'full name a one-item list',
      { ...valid, full_name: ['Ada Lovelace'] },
      invalidBody(['full_name', 'must be string']),
    ],
    ['full name null', { ...valid, full_name: null }, invalidBody(['full_name', 'must be string'])],
    [
      'avatar not a URL',
      { ...valid, avatar_url_original: 'a picture of Ada' },
      invalidBody(['avatar_url_original', 'must match format "uri"']),
    ],
    [
      'avatar with another scheme',
      { ...valid, avatar_url_original: 'ftp://img.example.com/ada.png' },
      invalidBody(['avatar_url_original', AVATAR_RULE]),
    ],
    [
      'avatar a data URL',
      { ...valid, avatar_url_original: 'data:image/png;base64,AAAA' },
      invalidBody(['avatar_url_original', AVATAR_RULE]),
    ],
    [
      'avatar a script',
      { ...valid, avatar_url_original: 'javascript:alert(1)' },
      invalidBody(['avatar_url_original', AVATAR_RULE]),
    ],
    [
      'avatar without a host',
      { ...valid, avatar_url_original: 'https://' },
      invalidBody(['avatar_url_original', AVATAR_RULE]),
    ],
    [
      'avatar too long',
      { ...valid, avatar_url_original: `${url2048}p` },
      invalidBody(['avatar_url_original', 'must NOT have more than 2048 characters']),
    ],
    [
      'avatar a number',
      { ...valid, avatar_url_original: 7 },
      invalidBody(['avatar_url_original', 'must be string or null']),
    ],
    [
      'everything wrong at once',
      { email: '', full_name: '' },
      invalidBody(
        ['email', 'must NOT have fewer than 1 characters'],
        ['full_name', 'must NOT have fewer than 1 characters'],
      ),
    ],
    [
      'both rules broken at once',
      { ...valid, full_name: 'Ada', avatar_url_original: 'ftp://x.example/a.png' },
      invalidBody(['full_name', NAME_RULE], ['avatar_url_original', AVATAR_RULE]),
    ],
    ['a list instead of an object', [valid], invalidBody(['(root)', 'must be object'])],
    ['null instead of an object', null, invalidBody(['(root)', 'must be object'])],
  ];
  for (const [name, body, expected] of cases) {
    it(`answers 400 for ${name}`, async () => {
      const res = await postMember(t.app, token, body, { 'x-request-id': 'req-v' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(expected);
    });
  }

  it('wrote nothing for any of them', async () => {
    expect(await profileRows(t, acme)).toEqual([]);
    expect(await auditRows(t, acme)).toEqual([]);
  });
});

describe('valid edge cases', () => {
  it('accepts an e-mail of exactly 254 and a full name of exactly 100 characters', async () => {
    const fullName = `Ada ${'L'.repeat(96)}`;
    const res = await postMember(t.app, token, { email: email254, full_name: fullName });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.member).toMatchObject({ email: email254, full_name: fullName });
  });

  it('judges lengths after trimming', async () => {
    const fullName = `Ada ${'M'.repeat(96)}`;
    const res = await postMember(t.app, token, { email: '  grace@example.com\n', full_name: `   ${fullName}\t ` });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.member).toMatchObject({
      email: 'grace@example.com',
      full_name: fullName,
      preferred_name: fullName,
    });
  });

  it('accepts an avatar of exactly 2048 characters, and null', async () => {
    const long = await postMember(t.app, token, {
      email: 'long@example.com',
      full_name: 'Long Avatar',
      avatar_url_original: url2048,
    });
    expect(long.statusCode).toBe(201);
    expect(long.json().data.member.avatar_url_original).toBe(url2048);
    const none = await postMember(t.app, token, {
      email: 'none@example.com',
      full_name: 'No Avatar',
      avatar_url_original: null,
    });
    expect(none.statusCode).toBe(201);
    expect(none.json().data.member.avatar_url_original).toBeNull();
  });

  it('ignores unknown fields', async () => {
    const res = await postMember(t.app, token, {
      email: 'extra@example.com',
      full_name: 'Extra Fields',
      role: 'admin',
      id: 'mine',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.member.id).not.toBe('mine');
  });

  it('accepts a JSON content type with a charset', async () => {
    const res = await postMember(
      t.app,
      token,
      { email: 'charset@example.com', full_name: 'Char Set' },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(res.statusCode).toBe(201);
  });
});

describe('bodies that are not JSON', () => {
  const unsupported = {
    success: false,
    error: 'The request body must be JSON (Content-Type: application/json).',
    code: 'unsupported_media_type',
    request_id: 'req-p',
  };
  const notJson = {
    success: false,
    error: 'The request body is not valid JSON.',
    code: 'invalid_body',
    request_id: 'req-p',
  };

  const post = (payload: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: membersPath,
      payload,
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'req-p', ...headers },
    });

  for (const contentType of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ]) {
    it(`answers 415 for ${contentType}`, async () => {
      const res = await post(JSON.stringify(valid), { 'content-type': contentType });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual(unsupported);
    });
  }

  it('answers 415 for a body without a content type', async () => {
    const res = await post(JSON.stringify(valid), {});
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(unsupported);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await post('{"email": "ada@example.com", ', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(notJson);
  });

  it('answers 400 for an empty JSON body', async () => {
    const res = await post('', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(notJson);
  });

  it('takes an empty application/json body on deactivate as no body (issue 35, item 14)', async () => {
    const added = await post(JSON.stringify({ email: 'quiet@example.com', full_name: 'Quiet Member' }), {
      'content-type': 'application/json',
    });
    const id = added.json().data.member.id as string;
    for (const [contentType, message] of [
      ['application/json', 'Member was deactivated successfully.'],
      ['application/json; charset=utf-8', 'Member was already deactivated.'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${membersPath}/${id}/deactivate`,
        payload: '',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType as string },
      });
      expect([contentType, res.statusCode]).toEqual([contentType, 200]);
      expect(res.json()).toEqual({
        success: true,
        message,
        data: { member: { ...added.json().data.member, is_deactivated: true } },
      });
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: `${membersPath}/${id}/deactivate`,
      payload: '{nope',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'req-p' },
    });
    expect([malformed.statusCode, malformed.json()]).toEqual([400, notJson]);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post(JSON.stringify({ ...valid, padding: 'x'.repeat(t.app.config.bodyLimitBytes) }), {
      'content-type': 'application/json',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      error: 'The request body is too large.',
      code: 'payload_too_large',
      request_id: 'req-p',
    });
  });
});
