// What assigning a badge refuses, each with the documented error body: unknown badges and members, bodies out of
// their bounds, bodies that are not JSON; nothing refused changes the badge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, badgeIds, noChatId } from '../../fixtures/badges-groups.js';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditOf, send } from '../helpers/write-requests.js';

let t: TestApp;
let acme: string;
let writer: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
  writer = await t.token(acme, ['read', 'members:write']);
});
afterAll(() => t.close());

const assign = (body: unknown, id = badgeIds.mentor, headers: Record<string, string> = {}) =>
  send(t.app, 'POST', `/badges/${id}/assign`, writer, body, { 'x-request-id': 'req-bad', ...headers });

describe('refusals', () => {
  it('answers 404 for a badge the community does not have, and 400 for an id that is no UUID', async () => {
    const unknown = '0b4d9e00-0000-4000-8000-0000000000ff';
    const res = await assign({ users: ['U0ADA00001'] }, unknown);
    expect([res.statusCode, res.json()]).toEqual([
      404,
      { success: false, error: `Badge '${unknown}' was not found.`, code: 'not_found', request_id: 'req-bad' },
    ]);
    expect((await t.get(`/admin/v0/badges/${unknown}`, writer)).json()).toMatchObject({ code: 'not_found' });
    const bad = await t.get('/admin/v0/badges/speaker', writer, { 'x-request-id': 'req-bad' });
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      {
        success: false,
        error:
          'Invalid parameter \'badge_id\': must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$".',
        code: 'invalid_parameter',
        request_id: 'req-bad',
        details: [
          {
            field: 'badge_id',
            message:
              'must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"',
          },
        ],
      },
    ]);
  });

  it('names every chat user id that is no member of the community, and changes nothing', async () => {
    const res = await assign({ users: ['U0ADA00001', 'U0NOBODY01', 'u0ada00001', 'U0NOBODY01'] });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      {
        success: false,
        error: "Invalid body field 'users.1': no member with chat user id 'U0NOBODY01' in this community.",
        code: 'invalid_body',
        request_id: 'req-bad',
        details: [
          { field: 'users.1', message: "no member with chat user id 'U0NOBODY01' in this community" },
          { field: 'users.2', message: "no member with chat user id 'u0ada00001' in this community" },
          { field: 'users.3', message: "no member with chat user id 'U0NOBODY01' in this community" },
        ],
      },
    ]);
    expect((await t.get(`/admin/v0/badges/${badgeIds.mentor}`, writer)).json().data.members).toEqual([]);
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('refuses bodies out of bounds: no users, too many, ids too long or not text, unknown fields', async () => {
    const cases: [unknown, string, { field: string; message: string }[]][] = [
      [
        {},
        "Invalid body field 'users': must have required property 'users'.",
        [{ field: 'users', message: "must have required property 'users'" }],
      ],
      [
        { users: [] },
        "Invalid body field 'users': must NOT have fewer than 1 items.",
        [{ field: 'users', message: 'must NOT have fewer than 1 items' }],
      ],
      [
        { users: Array.from({ length: 1001 }, (_, i) => `U${i}`) },
        "Invalid body field 'users': must NOT have more than 1000 items.",
        [{ field: 'users', message: 'must NOT have more than 1000 items' }],
      ],
      [
        { users: ['U'.repeat(65), 7, ''] },
        "Invalid body field 'users.0': must NOT have more than 64 characters.",
        [
          { field: 'users.0', message: 'must NOT have more than 64 characters' },
          { field: 'users.1', message: 'must be string' },
          { field: 'users.2', message: 'must NOT have fewer than 1 characters' },
        ],
      ],
      [
        { users: ['U0ADA00001'], badge: 'Mentor' },
        "Invalid body field 'badge': is not a known field.",
        [{ field: 'badge', message: 'is not a known field' }],
      ],
    ];
    for (const [body, error, details] of cases) {
      const res = await assign(body);
      expect([res.statusCode, res.json()], JSON.stringify(body).slice(0, 60)).toEqual([
        400,
        { success: false, error, code: 'invalid_body', request_id: 'req-bad', details },
      ]);
    }
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('answers 415 to a body that is not JSON and 400 to malformed JSON', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: `/admin/v0/badges/${badgeIds.mentor}/assign`,
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'text/plain', 'x-request-id': 'req-bad' },
      payload: 'U0ADA00001',
    });
    expect([text.statusCode, text.json().code]).toEqual([415, 'unsupported_media_type']);
    const broken = await assign('{"users": [');
    expect([broken.statusCode, broken.json().code]).toEqual([400, 'invalid_body']);
  });

  it('cannot reach a member without a chat user id: a badge is assigned by chat user id only', async () => {
    const res = await assign({ users: [noChatId] });
    expect(res.json().details).toEqual([
      { field: 'users.0', message: `no member with chat user id '${noChatId}' in this community` },
    ]);
  });
});
