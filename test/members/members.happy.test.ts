// Adding members: create, update by e-mail (case-insensitive), the member as a profile, and the race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ada, baseRecords, profileIds } from '../../fixtures/community.js';
import { auditRows, fetchMember, listen, postMember, profileRows, UUID } from './member-requests.js';

let t: TestApp;
let acme: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token } = await t.seed('acme', baseRecords, ['read', 'members:write']));
});
afterAll(() => t.close());

const created = 'New member was created successfully.';
const updated = 'Member already existed and was updated successfully.';

describe('a new e-mail', () => {
  it('creates a member: 201 with the member, compact JSON, success first', async () => {
    const res = await postMember(t.app, token, {
      email: 'mary@example.com',
      full_name: 'Mary Somerville',
      avatar_url_original: 'https://img.example.com/mary.png',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const id = res.json().data.member.id;
    expect(id).toMatch(UUID);
    expect(res.body).toBe(
      `{"success":true,"message":"${created}","data":{"member":{"id":"${id}","email":"mary@example.com",` +
        '"full_name":"Mary Somerville","preferred_name":"Mary Somerville",' +
        '"avatar_url_original":"https://img.example.com/mary.png","chat_profile_id":null,"is_deactivated":false}}}',
    );
  });

  it('answers the same full and preferred name when spaces run between first and last name', async () => {
    const res = await postMember(t.app, token, { email: 'new.person@example.com', full_name: 'New  Person' });
    expect(res.statusCode).toBe(201);
    const { full_name, preferred_name } = res.json().data.member;
    expect([full_name, preferred_name]).toEqual(['New Person', 'New Person']);
  });

  it('stores the member as a profile: first name, last name (the rest), lowercased key', async () => {
    const res = await postMember(t.app, token, {
      email: '  Emmy.Noether@Example.COM ',
      full_name: '  Amalie Emmy   Noether  ',
    });
    expect(res.statusCode).toBe(201);
    const member = res.json().data.member;
    expect(member).toEqual({
      id: member.id,
      email: 'Emmy.Noether@Example.COM',
      full_name: 'Amalie Emmy   Noether',
      preferred_name: 'Amalie Emmy   Noether',
      avatar_url_original: null,
      chat_profile_id: null,
      is_deactivated: false,
    });
    const row = (await profileRows(t, acme)).find((r) => r.id === member.id);
    expect(row).toMatchObject({
      first_name: 'Amalie',
      last_name: 'Emmy   Noether',
      preferred_name: 'Amalie Emmy   Noether',
      email: 'Emmy.Noether@Example.COM',
      email_key: 'emmy.noether@example.com',
      preferred_image_original: null,
      chat_user_id: null,
      created_at: '2026-03-10 12:00:00.000000',
      updated_at: '2026-03-10 12:00:00.000000',
    });
  });
});

describe('an existing e-mail', () => {
  it('answers 200 with the same id, name and avatar updated, compared case-insensitively', async () => {
    const first = await postMember(t.app, token, { email: 'sophie@example.com', full_name: 'Sophie Germain' });
    expect(first.statusCode).toBe(201);
    const id = first.json().data.member.id;
    t.clock.now += 1000;
    try {
      const second = await postMember(t.app, token, {
        email: 'SOPHIE@Example.com',
        full_name: 'Marie-Sophie Germain',
        avatar_url_original: 'http://img.example.com/sophie.png',
      });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({
        success: true,
        message: updated,
        data: {
          member: {
            id,
            // The e-mail is the identity; it keeps the spelling it was first given.
            email: 'sophie@example.com',
            full_name: 'Marie-Sophie Germain',
            preferred_name: 'Marie-Sophie Germain',
            avatar_url_original: 'http://img.example.com/sophie.png',
            chat_profile_id: null,
            is_deactivated: false,
          },
        },
      });
      const rows = (await profileRows(t, acme)).filter((r) => r.email_key === 'sophie@example.com');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        created_at: '2026-03-10 12:00:00.000000',
        updated_at: '2026-03-10 12:00:01.000000',
      });
    } finally {
      t.clock.now -= 1000;
    }
  });

  it('keeps the avatar when it is left out and removes it when it is null', async () => {
    const email = 'hypatia@example.com';
    await postMember(t.app, token, {
      email,
      full_name: 'Hypatia of Alexandria',
      avatar_url_original: 'https://img.example.com/h.png',
    });
    const kept = await postMember(t.app, token, { email, full_name: 'Hypatia Alexandrina' });
    expect(kept.json().data.member).toMatchObject({
      full_name: 'Hypatia Alexandrina',
      avatar_url_original: 'https://img.example.com/h.png',
    });
    const removed = await postMember(t.app, token, {
      email,
      full_name: 'Hypatia Alexandrina',
      avatar_url_original: null,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.member.avatar_url_original).toBeNull();
  });

  it('updates an imported profile with that e-mail, keeping its chat link', async () => {
    const res = await postMember(t.app, token, {
      email: 'ADA@example.com',
      full_name: 'Augusta Ada King',
      avatar_url_original: ada.preferred_image_original,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.member).toEqual({
      id: profileIds.ada,
      email: 'ada@example.com',
      full_name: 'Augusta Ada King',
      preferred_name: 'Augusta Ada King',
      avatar_url_original: 'https://img.example.com/ada.png',
      chat_profile_id: 'U0ADA00001',
      is_deactivated: false,
    });
    // The same original: the sized images cut from it stay.
    const host = (await t.get('/admin/v0/calendar_events/evongoing001', token)).json().data.hosts[1];
    expect(host).toMatchObject({
      profile_id: profileIds.ada,
      first_name: 'Augusta',
      last_name: 'Ada King',
      preferred_image_1024: ada.preferred_image_1024,
      preferred_image_72: ada.preferred_image_72,
    });
  });

  it('drops the sized images of a profile when its original avatar changes', async () => {
    const res = await postMember(t.app, token, {
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      avatar_url_original: 'https://img.example.com/ada-new.png',
    });
    expect(res.statusCode).toBe(200);
    const host = (await t.get('/admin/v0/calendar_events/evongoing001', token)).json().data.hosts[1];
    expect(host).toMatchObject({
      profile_id: profileIds.ada,
      preferred_image_original: 'https://img.example.com/ada-new.png',
      preferred_image_1024: null,
      preferred_image_72: null,
      chat_image_72: ada.chat_image_72,
    });
  });
});

describe('the member is a profile of the community', () => {
  it('appears as a host once an import names it', async () => {
    const res = await postMember(t.app, token, {
      email: 'katherine@example.com',
      full_name: 'Katherine Johnson',
      avatar_url_original: 'https://img.example.com/kj.png',
    });
    const id: string = res.json().data.member.id;
    await t.importRecords(acme, [
      {
        kind: 'calendar_event',
        id: 'evmemberhost',
        title: 'Orbits',
        start_date: '2026-04-01T10:00:00Z',
        created_at: '2026-03-01T00:00:00Z',
        hosts: [id],
      },
    ]);
    const event = await t.get('/admin/v0/calendar_events/evmemberhost', token);
    expect(event.statusCode).toBe(200);
    expect(event.json().data.hosts).toEqual([
      {
        profile_id: id,
        created_at: '2026-03-10 12:00:00.000000+00',
        preferred_name: 'Katherine Johnson',
        preferred_image_original: 'https://img.example.com/kj.png',
        preferred_image_1024: null,
        preferred_image_512: null,
        preferred_image_192: null,
        preferred_image_72: null,
        preferred_image_48: null,
        preferred_image_32: null,
        preferred_image_24: null,
        first_name: 'Katherine',
        last_name: 'Johnson',
        email: 'katherine@example.com',
        chat_user_id: null,
        chat_is_admin: false,
        chat_is_bot: false,
        chat_first_name: null,
        chat_last_name: null,
        chat_image_72: null,
        chat_image_original: null,
        is_deactivated: false,
      },
    ]);
  });

  it('is one member per community: the same e-mail elsewhere is another member', async () => {
    const other = await t.community('other-members');
    const otherToken = await t.token(other, ['members:write']);
    const here = await postMember(t.app, token, { email: 'shared@example.com', full_name: 'Shared Person' });
    const there = await postMember(t.app, otherToken, { email: 'shared@example.com', full_name: 'Shared Person' });
    expect(here.statusCode).toBe(201);
    expect(there.statusCode).toBe(201);
    expect(there.json().data.member.id).not.toBe(here.json().data.member.id);
  });
});

describe('concurrency', () => {
  it('makes exactly one member of 50 parallel requests with one e-mail over a real socket', async () => {
    const race = await t.community('race');
    const raceToken = await t.token(race, ['members:write']);
    const baseUrl = await listen(t.app);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetchMember(baseUrl, raceToken, {
          email: i % 2 ? 'racer@example.com' : 'RACER@example.com',
          full_name: `Racer Number${i}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    const ids = new Set(answers.map((a) => a.body.data?.member.id));
    expect(ids.size).toBe(1);
    const rows = await profileRows(t, race);
    expect(rows).toHaveLength(1);
    expect([...ids]).toEqual([rows[0]?.id]);
    const audit = await auditRows(t, race);
    expect(audit.filter((r) => r.action === 'member.created')).toHaveLength(1);
    expect(audit.filter((r) => r.action === 'member.updated')).toHaveLength(49);
  });
});
