// Who may read and assign badges (scopes, tokens) and what another community's token sees and reaches: nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, badgeIds } from '../../fixtures/badges-groups.js';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditOf, send } from '../helpers/write-requests.js';

let t: TestApp;
let acme: string;
let other: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
  // The same ids in another community, with another name: ids are unique per community only.
  ({ community: other } = await t.seed('other', [
    ...baseRecords.filter((r) => r.kind === 'profile'),
    { kind: 'badge', id: badgeIds.speaker, name: 'Other speaker' },
    { kind: 'badge', id: '0b4d9e00-0000-4000-8000-0000000000b1', name: 'Other only' },
    { kind: 'profile', profile_id: '5b1c2d3e-0000-4000-8000-0000000000b1', chat_user_id: 'U0OTHER001' },
  ]));
});
afterAll(() => t.close());

const assignPath = `/badges/${badgeIds.mentor}/assign`;

describe('scopes and tokens', () => {
  it('refuses a read-only token with 403 naming the scope, a missing token with 401; nothing is assigned', async () => {
    const reader = await t.token(acme, ['read']);
    const res = await send(t.app, 'POST', assignPath, reader, { users: ['U0ADA00001'] }, { 'x-request-id': 'req-403' });
    expect([res.statusCode, res.json()]).toEqual([
      403,
      {
        success: false,
        error: "This operation needs the 'members:write' scope; the token has: read.",
        code: 'insufficient_scope',
        request_id: 'req-403',
      },
    ]);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/admin/v0${assignPath}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"users":["U0ADA00001"]}',
    });
    expect([anonymous.statusCode, anonymous.headers['www-authenticate'], anonymous.json().code]).toEqual([
      401,
      'Bearer',
      'unauthorized',
    ]);
    expect((await t.get(`/admin/v0/badges/${badgeIds.mentor}`, reader)).json().data.members).toEqual([]);
    expect(await auditOf(t, acme)).toEqual([]);
  });

  it('lets a members:write token assign without read, but not list', async () => {
    const writeOnly = await t.token(acme, ['members:write']);
    expect((await send(t.app, 'POST', assignPath, writeOnly, { users: ['U0ADA00001'] })).statusCode).toBe(200);
    const list = await t.get('/admin/v0/badges', writeOnly);
    expect([list.statusCode, list.json().error]).toEqual([
      403,
      "This operation needs the 'read' scope; the token has: members:write.",
    ]);
  });
});

describe('tenancy', () => {
  it("never shows, counts, finds or assigns another community's badges, nor reaches its members", async () => {
    const mine = await t.token(acme, ['read', 'members:write']);
    const listed = (await t.get('/admin/v0/badges', mine)).json().data;
    expect([listed.total_records, listed.records.map((b: { name: string }) => b.name)]).toEqual([
      2,
      ['Mentor', 'Speaker'],
    ]);
    expect((await t.get('/admin/v0/badges/0b4d9e00-0000-4000-8000-0000000000b1', mine)).statusCode).toBe(404);
    expect(
      (
        await send(t.app, 'POST', '/badges/0b4d9e00-0000-4000-8000-0000000000b1/assign', mine, {
          users: ['U0ADA00001'],
        })
      ).statusCode,
    ).toBe(404);
    // The other community's member is unknown here.
    const theirs = await send(t.app, 'POST', `/badges/${badgeIds.speaker}/assign`, mine, { users: ['U0OTHER001'] });
    expect([theirs.statusCode, theirs.json().details]).toEqual([
      400,
      [{ field: 'users.0', message: "no member with chat user id 'U0OTHER001' in this community" }],
    ]);
    const otherToken = await t.token(other, ['read', 'members:write']);
    await send(t.app, 'POST', `/badges/${badgeIds.speaker}/assign`, otherToken, { users: ['U0GRACE001'] });
    const speaker = (await t.get(`/admin/v0/badges/${badgeIds.speaker}`, mine)).json().data;
    expect([speaker.name, speaker.members.map((m: { chat_user_id: string }) => m.chat_user_id)]).toEqual([
      'Speaker',
      ['U0ADA00001'],
    ]);
    const theirSpeaker = (await t.get(`/admin/v0/badges/${badgeIds.speaker}`, otherToken)).json().data;
    expect([theirSpeaker.name, theirSpeaker.members.map((m: { chat_user_id: string }) => m.chat_user_id)]).toEqual([
      'Other speaker',
      ['U0GRACE001'],
    ]);
  });
});
