// Who may read groups and replace their members (scopes), and what another community's token sees and reaches: nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, groupIds } from '../../fixtures/badges-groups.js';
import { baseRecords } from '../../fixtures/community.js';
import { auditOf, send } from '../helpers/write-requests.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
  ({ community: other } = await t.seed('other', [
    ...baseRecords.filter((r) => r.kind === 'profile'),
    { kind: 'group', id: groupIds.organizers, name: 'Other organizers', members: [] },
    { kind: 'profile', profile_id: '5b1c2d3e-0000-4000-8000-0000000000b1', chat_user_id: 'U0OTHER001' },
  ]));
});
afterAll(() => t.close());

const membersPath = `/groups/${groupIds.organizers}/members`;

describe('scopes and tokens', () => {
  it('refuses a read-only token with 403 naming the scope; the group keeps its members', async () => {
    const reader = await t.token(acme, ['read', 'events:write']);
    const res = await send(t.app, 'PUT', membersPath, reader, { users: [] }, { 'x-request-id': 'req-403' });
    expect([res.statusCode, res.json()]).toEqual([
      403,
      {
        success: false,
        error: "This operation needs the 'members:write' scope; the token has: read, events:write.",
        code: 'insufficient_scope',
        request_id: 'req-403',
      },
    ]);
    expect((await t.get(`/admin/v0/groups/${groupIds.organizers}`, reader)).json().data.members_count).toBe(2);
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('lets a members:write token replace members without read, but not read a group', async () => {
    const writeOnly = await t.token(acme, ['members:write']);
    expect((await send(t.app, 'PUT', membersPath, writeOnly, { users: ['U0ADA00001'] })).statusCode).toBe(200);
    expect((await t.get(`/admin/v0/groups/${groupIds.organizers}`, writeOnly)).statusCode).toBe(403);
  });
});

describe('tenancy', () => {
  it("keeps each community's group of one id its own, and another community's members out of reach", async () => {
    const mine = await t.token(acme, ['read', 'members:write']);
    const theirs = await t.token(other, ['read', 'members:write']);
    const outsider = await send(t.app, 'PUT', membersPath, mine, { users: ['U0OTHER001'] });
    expect([outsider.statusCode, outsider.json().details]).toEqual([
      400,
      [{ field: 'users.0', message: "no member with chat user id 'U0OTHER001' in this community" }],
    ]);
    await send(t.app, 'PUT', membersPath, theirs, { users: ['U0OTHER001', 'U0GRACE001'] });
    const own = (await t.get(`/admin/v0/groups/${groupIds.organizers}`, mine)).json().data;
    const elsewhere = (await t.get(`/admin/v0/groups/${groupIds.organizers}`, theirs)).json().data;
    expect([own.name, own.members.map((m: { chat_user_id: string }) => m.chat_user_id)]).toEqual([
      'Organizers',
      ['U0ADA00001'],
    ]);
    expect([elsewhere.name, elsewhere.members.map((m: { chat_user_id: string }) => m.chat_user_id)]).toEqual([
      'Other organizers',
      ['U0GRACE001', 'U0OTHER001'],
    ]);
    expect((await t.get('/admin/v0/groups', theirs)).json().data.total_records).toBe(1);
    expect((await t.get(`/admin/v0/groups/${groupIds.volunteers}`, theirs)).statusCode).toBe(404);
  });
});
