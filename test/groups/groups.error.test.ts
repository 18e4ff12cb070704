// What replacing a group's members refuses, each with the documented error body; nothing refused changes the group.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, groupIds } from '../../fixtures/badges-groups.js';
import { baseRecords } from '../../fixtures/community.js';
import { auditOf, send } from '../helpers/write-requests.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;
let writer: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
  writer = await t.token(acme, ['read', 'members:write']);
});
afterAll(() => t.close());

const replace = (body: unknown, id = groupIds.organizers) =>
  send(t.app, 'PUT', `/groups/${id}/members`, writer, body, { 'x-request-id': 'req-bad' });

describe('refusals', () => {
  it('answers 404 for a group the community does not have, and 400 for an id that is no UUID', async () => {
    const unknown = '06a0b000-0000-4000-8000-0000000000ff';
    const res = await replace({ users: [] }, unknown);
    expect([res.statusCode, res.json()]).toEqual([
      404,
      { success: false, error: `Group '${unknown}' was not found.`, code: 'not_found', request_id: 'req-bad' },
    ]);
    expect((await t.get(`/admin/v0/groups/${unknown}`, writer)).statusCode).toBe(404);
    const bad = await replace({ users: [] }, 'organizers');
    expect([bad.statusCode, bad.json().code, bad.json().details]).toEqual([
      400,
      'invalid_parameter',
      [
        {
          field: 'group_id',
          message: 'must match pattern "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"',
        },
      ],
    ]);
  });

  it('names every chat user id that is no member of the community, and keeps the members as they were', async () => {
    const before = (await t.get(`/admin/v0/groups/${groupIds.organizers}`, writer)).json().data;
    const res = await replace({ users: ['U0GRACE001', 'U0GHOST001'] });
    expect([res.statusCode, res.json()]).toEqual([
      400,
      {
        success: false,
        error: "Invalid body field 'users.1': no member with chat user id 'U0GHOST001' in this community.",
        code: 'invalid_body',
        request_id: 'req-bad',
        details: [{ field: 'users.1', message: "no member with chat user id 'U0GHOST001' in this community" }],
      },
    ]);
    expect((await t.get(`/admin/v0/groups/${groupIds.organizers}`, writer)).json().data).toEqual(before);
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('refuses bodies out of bounds: no users, too many, not a list, unknown fields; and non-JSON bodies', async () => {
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{}, [{ field: 'users', message: "must have required property 'users'" }]],
      [{ users: 'U0ADA00001' }, [{ field: 'users', message: 'must be array' }]],
      [
        { users: Array.from({ length: 1001 }, () => 'U0ADA00001') },
        [{ field: 'users', message: 'must NOT have more than 1000 items' }],
      ],
      [{ users: [], name: 'Renamed' }, [{ field: 'name', message: 'is not a known field' }]],
      [[], [{ field: '(root)', message: 'must be object' }]],
    ];
    for (const [body, details] of cases) {
      const res = await replace(body);
      expect([res.statusCode, res.json().code, res.json().details], JSON.stringify(body).slice(0, 60)).toEqual([
        400,
        'invalid_body',
        details,
      ]);
    }
    const text = await t.app.inject({
      method: 'PUT',
      url: `/admin/v0/groups/${groupIds.organizers}/members`,
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'text/plain' },
      payload: 'U0ADA00001',
    });
    expect([text.statusCode, text.json().code]).toEqual([415, 'unsupported_media_type']);
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/admin/v0/groups/${groupIds.organizers}/members`,
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    });
    expect([empty.statusCode, empty.json().error]).toEqual([400, 'The request body is not valid JSON.']);
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('answers 405 with Allow for another method on the members path', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v0/groups/${groupIds.organizers}/members`,
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      payload: '{"users":[]}',
    });
    expect([res.statusCode, res.headers['allow']]).toEqual([405, 'PUT']);
  });
});
