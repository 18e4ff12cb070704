// Hosts by chat user id (issue 35, item 13): `hosts: {"slack_user_ids": […]}` as the hosted product's client builds
// it, and chat user ids in the array form; in both field-name modes, on create and change, unknown ids named in a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';

let t: TestApp;
let acme: string;
let spec: string;
let hosted: string;

const otherProfile = '5b1c2d3e-0000-4000-8000-0000000000f1';

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  const other = await t.community('other');
  await t.importRecords(acme, baseRecords);
  await t.importRecords(other, [
    { kind: 'profile', profile_id: otherProfile, created_at: '2025-01-01T00:00:00Z', chat_user_id: 'U0OTHER001' },
  ]);
  spec = await t.token(acme, ['read', 'events:write']);
  hosted = await t.token(acme, ['read', 'events:write'], { fieldNames: 'hosted' });
});
afterAll(() => t.close());

const path = '/admin/v0/calendar_events';
const send = (method: 'POST' | 'PATCH', url: string, token: string, body: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

const minimal = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  description: { text: 'Talks and pizza' },
};

type Host = { profile_id: string; chat_user_id?: string; slack_user_id?: string };

describe('hosts by chat user id', () => {
  it('creates with {"slack_user_ids": […]} in both modes, the hosts in the order given', async () => {
    const body = { ...minimal, hosts: { slack_user_ids: ['U0GRACE001', 'U0ADA00001'] } };
    const bySpec = await send('POST', path, spec, body);
    expect(bySpec.statusCode).toBe(201);
    expect(bySpec.json().data.hosts.map((h: Host) => [h.profile_id, h.chat_user_id])).toEqual([
      [profileIds.grace, 'U0GRACE001'],
      [profileIds.ada, 'U0ADA00001'],
    ]);
    const byHosted = await send('POST', path, hosted, body);
    expect(byHosted.statusCode).toBe(201);
    const created = byHosted.json().data;
    expect(created.hosts.map((h: Host) => [h.profile_id, h.slack_user_id])).toEqual([
      [profileIds.grace, 'U0GRACE001'],
      [profileIds.ada, 'U0ADA00001'],
    ]);
    // Stored as any other hosts: GET answers the same.
    const got = await t.get(`${path}/${created.id}`, hosted);
    expect(got.json().data.hosts).toEqual(created.hosts);
  });

  it('takes chat user ids in the array form, hosts and speakers', async () => {
    const mixed = await send('POST', path, spec, {
      ...minimal,
      hosts: ['U0GRACE001', 'ada@example.com'],
      speakers: ['U0ADA00001'],
    });
    expect(mixed.statusCode).toBe(201);
    const event = mixed.json().data;
    expect([event.hosts.map((h: Host) => h.profile_id), event.speakers.map((h: Host) => h.profile_id)]).toEqual([
      [profileIds.grace, profileIds.ada],
      [profileIds.ada],
    ]);
  });

  it('changes the hosts with the object form', async () => {
    const created = (await send('POST', path, spec, { ...minimal, hosts: [profileIds.ada] })).json().data;
    const res = await send('PATCH', `${path}/${created.id}`, hosted, { hosts: { slack_user_ids: ['U0GRACE001'] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.hosts.map((h: Host) => [h.profile_id, h.slack_user_id])).toEqual([
      [profileIds.grace, 'U0GRACE001'],
    ]);
  });

  const refused = async (token: string, hosts: unknown, details: { field: string; message: string }[]) => {
    const res = await send('POST', path, token, { ...minimal, hosts });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: `Invalid body field '${details[0]?.field}': ${details[0]?.message}.`,
      code: 'invalid_body',
      request_id: res.headers['x-request-id'],
      details,
    });
  };

  it("names unknown chat user ids, another community's included, and a profile listed twice", async () => {
    for (const token of [spec, hosted]) {
      await refused(token, { slack_user_ids: ['U0ADA00001', 'U0NOBODY01', 'U0OTHER001', 'U0ADA00001'] }, [
        { field: 'hosts.slack_user_ids.1', message: "no profile with chat user id 'U0NOBODY01' in this community" },
        { field: 'hosts.slack_user_ids.2', message: "no profile with chat user id 'U0OTHER001' in this community" },
        { field: 'hosts.slack_user_ids.3', message: 'names a profile already listed' },
      ]);
      await refused(token, { slack_user_ids: ['u0ada00001'] }, [
        { field: 'hosts.slack_user_ids.0', message: "no profile with chat user id 'u0ada00001' in this community" },
      ]);
      await refused(
        token,
        ['U0NOBODY01'],
        [{ field: 'hosts.0', message: "no profile or member 'U0NOBODY01' in this community" }],
      );
    }
  });

  it('refuses a malformed object form naming the field, and only the branch the value is the type of', async () => {
    await refused(spec, { slack_user_ids: [] }, [
      { field: 'hosts.slack_user_ids', message: 'must NOT have fewer than 1 items' },
    ]);
    await refused(spec, { slack_user_ids: ['U1', 'U2', 'U3', 'U4', 'U5', 'U6'] }, [
      { field: 'hosts.slack_user_ids', message: 'must NOT have more than 5 items' },
    ]);
    await refused(spec, { slack_user_ids: [7] }, [{ field: 'hosts.slack_user_ids.0', message: 'must be string' }]);
    await refused(spec, {}, [
      { field: 'hosts.slack_user_ids', message: "must have required property 'slack_user_ids'" },
    ]);
    await refused(spec, { slack_user_ids: ['U0ADA00001'], chat_user_ids: ['U0ADA00001'] }, [
      { field: 'hosts.chat_user_ids', message: 'is not a known field' },
    ]);
    // A misspelt key is named, and so is the one missing, as for any object of the body.
    await refused(spec, { slack_users: ['U0ADA00001'] }, [
      { field: 'hosts.slack_user_ids', message: "must have required property 'slack_user_ids'" },
      { field: 'hosts.slack_users', message: 'is not a known field' },
    ]);
    await refused(spec, 'U0ADA00001', [{ field: 'hosts', message: 'must be array or object' }]);
    await refused(spec, [1], [{ field: 'hosts.0', message: 'must be string' }]);
  });
});
