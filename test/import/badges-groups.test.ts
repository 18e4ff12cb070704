// The import's `badge` and `group` kinds: their members by profile id (bare or as the API shows them, in either
// field-name mode), replaced by a later record, every bad line named; export writes them and imports them back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, badgeIds, groupIds, linusId } from '../../fixtures/badges-groups.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { exportRecords } from '../../src/export/export.service.js';
import { importLines } from '../../src/import/import.service.js';
import { ImportError } from '../../src/import/problems.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { outboxOf } from '../helpers/write-requests.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let n = 0;
/** A fresh community holding the base records and a read token for it. */
async function fresh(records: object[] = baseRecords): Promise<{ id: string; token: string }> {
  const id = await t.community(`member-sets-${++n}`);
  if (records.length > 0) await t.importRecords(id, records);
  return { id, token: await t.token(id) };
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const newBadge = '0b4d9e00-0000-4000-8000-0000000000aa';
const newGroup = '06a0b000-0000-4000-8000-0000000000aa';
const data = async (path: string, token: string) => (await t.get(`/admin/v0${path}`, token)).json().data;

describe('importing badges and groups', () => {
  it('takes members as bare profile ids or as the API shows them, hosted names included; times default to updated_at', async () => {
    const { id, token } = await fresh();
    const summary = await t.importRecords(id, [
      {
        kind: 'badge',
        id: newBadge,
        name: 'Host',
        created_at: '2025-04-01T09:00:00Z',
        updated_at: '2025-04-02T09:00:00+02:00',
        // A member named before the line that defines the profile.
        members: [
          linusId,
          { profile_id: profileIds.ada, slack_user_id: 'U0ADA00001', assigned_at: '2025-04-01T10:00:00Z' },
        ],
        members_count: 2,
      },
      { kind: 'profile', profile_id: linusId, preferred_name: 'Linus Pauling', chat_user_id: 'U0LINUS001' },
      { kind: 'group', id: newGroup, name: 'Hosts', description: 'Those who host', members: [profileIds.grace] },
    ]);
    expect(summary).toEqual({
      records: 3,
      feeds: 0,
      profiles: 1,
      tags: 0,
      calendar_events: 0,
      posts: 0,
      comments: 0,
      badges: 1,
      groups: 1,
    });
    expect(await data(`/badges/${newBadge}`, token)).toEqual({
      id: newBadge,
      name: 'Host',
      description: null,
      created_at: '2025-04-01 09:00:00.000000+00',
      updated_at: '2025-04-02 07:00:00.000000+00',
      members_count: 2,
      members: [
        { profile_id: profileIds.ada, chat_user_id: 'U0ADA00001', assigned_at: '2025-04-01 10:00:00.000000+00' },
        { profile_id: linusId, chat_user_id: 'U0LINUS001', assigned_at: '2025-04-02 07:00:00.000000+00' },
      ],
    });
    // Without created_at or updated_at, the import's own time.
    expect(await data(`/groups/${newGroup}`, token)).toEqual({
      id: newGroup,
      name: 'Hosts',
      description: 'Those who host',
      created_at: '2026-03-10 12:00:00.000000+00',
      updated_at: '2026-03-10 12:00:00.000000+00',
      members_count: 1,
      members: [
        { profile_id: profileIds.grace, chat_user_id: 'U0GRACE001', added_at: '2026-03-10 12:00:00.000000+00' },
      ],
    });
  });

  it('takes into an empty community a badge and a group whose members come later in the file', async () => {
    const { id, token } = await fresh([]);
    await t.importRecords(id, [
      { kind: 'badge', id: newBadge, name: 'Early', created_at: '2025-04-01T09:00:00Z', members: [linusId] },
      { kind: 'group', id: newGroup, name: 'Early too', created_at: '2025-04-01T09:00:00Z', members: [linusId] },
      { kind: 'profile', profile_id: linusId, preferred_name: 'Linus Pauling', chat_user_id: 'U0LINUS001' },
    ]);
    const member = { profile_id: linusId, chat_user_id: 'U0LINUS001' };
    expect((await data(`/badges/${newBadge}`, token)).members).toEqual([
      { ...member, assigned_at: '2025-04-01 09:00:00.000000+00' },
    ]);
    expect((await data(`/groups/${newGroup}`, token)).members).toEqual([
      { ...member, added_at: '2025-04-01 09:00:00.000000+00' },
    ]);
  });

  it('replaces the members of a badge or group the community holds with those of the later record', async () => {
    const { id, token } = await fresh([...baseRecords, ...badgeGroupRecords]);
    await t.importRecords(id, [
      {
        kind: 'badge',
        id: badgeIds.speaker,
        name: 'Speaker',
        created_at: '2025-03-01T10:00:00Z',
        updated_at: '2025-05-01T10:00:00Z',
        members: [profileIds.grace],
      },
      { kind: 'group', id: groupIds.organizers, name: 'Organisers', created_at: '2025-03-01T10:00:00Z', members: [] },
      // Given twice in one file: the last record wins, members included.
      { kind: 'group', id: groupIds.volunteers, name: 'Volunteers', members: [profileIds.ada] },
      { kind: 'group', id: groupIds.volunteers, name: 'Volunteers', members: [linusId] },
    ]);
    expect((await data(`/badges/${badgeIds.speaker}`, token)).members).toEqual([
      { profile_id: profileIds.grace, chat_user_id: 'U0GRACE001', assigned_at: '2025-05-01 10:00:00.000000+00' },
    ]);
    const groups = await data('/groups', token);
    expect(
      groups.records.map((g: { name: string; members: { profile_id: string }[] }) => [
        g.name,
        g.members.map((m) => m.profile_id),
      ]),
    ).toEqual([
      ['Organisers', []],
      ['Volunteers', [linusId]],
    ]);
  });

  it('names every bad line: unknown members, a member twice, bad times, unknown fields, missing names', async () => {
    const { id } = await fresh();
    const missing = '5b1c2d3e-0000-4000-8000-0000000000ff';
    const lines = [
      { kind: 'badge', id: newBadge, name: 'Fine', members: [profileIds.ada] },
      { kind: 'badge', id: badgeIds.mentor, name: 'Twice', members: [profileIds.ada, { profile_id: profileIds.ada }] },
      { kind: 'group', id: newGroup, name: 'Late', members: [{ profile_id: profileIds.ada, added_at: 'yesterday' }] },
      { kind: 'group', id: groupIds.volunteers, nmae: 'Typo', name: 'Volunteers' },
      { kind: 'badge', id: badgeIds.speaker, members: [] },
      {
        kind: 'group',
        id: groupIds.organizers,
        name: 'Organizers',
        members: [{ profile_id: profileIds.ada, joined: 1 }],
      },
      { kind: 'badge', id: 'not-a-uuid', name: 'Bad id' },
      { kind: 'group', id: groupIds.organizers, name: 'Ghosts', members: [missing] },
    ].map((r) => JSON.stringify(r));
    const error = await importLines(t.testStore.store, id, lines).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 2, reason: `members.1: profile '${profileIds.ada}' is listed twice` },
      { line: 3, reason: "members.0.added_at: 'yesterday' is not an ISO 8601 or wire timestamp" },
      { line: 4, reason: "group: unknown field 'nmae' (did you mean 'name'?)" },
      { line: 5, reason: 'badge: name is required' },
      { line: 6, reason: "group: unknown field 'members.0.joined'" },
      { line: 7, reason: 'badge: id must be a UUID (8-4-4-4-12 hexadecimal digits)' },
      { line: 8, reason: `group member: profile '${missing}' does not exist in the file or the community` },
    ]);
    expect(
      await t.testStore.store.db.selectFrom('badges').select('id').where('community_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('counts badges and groups in a dry run, writing nothing', async () => {
    const { id } = await fresh();
    const summary = await importLines(
      t.testStore.store,
      id,
      badgeGroupRecords.map((r) => JSON.stringify(r)),
      { dryRun: true },
    );
    expect([summary.records, summary.profiles, summary.badges, summary.groups]).toEqual([6, 2, 2, 2]);
    expect(
      await t.testStore.store.db.selectFrom('groups').select('id').where('community_id', '=', id).execute(),
    ).toEqual([]);
  });
});

describe('the webhooks of an import', () => {
  it('announces each badge given and each group whose members changed, as the API does; nothing when the file changes none', async () => {
    const { id } = await fresh([...baseRecords, ...badgeGroupRecords]);
    await createWebhooksService(t.testStore.store.db).add(id, 'http://127.0.0.1:9/hook', {
      events: 'member.badge_assigned,group.*',
      allowPrivate: true,
    });
    const file = [
      {
        kind: 'badge',
        id: badgeIds.speaker,
        name: 'Speaker',
        updated_at: '2025-05-01T10:00:00Z',
        members: [profileIds.ada, profileIds.grace],
      },
      { kind: 'group', id: groupIds.organizers, name: 'Organizers', members: [profileIds.grace, linusId] },
      { kind: 'group', id: groupIds.volunteers, name: 'Volunteers', members: [] },
    ];
    await t.importRecords(id, file);
    const organizers = await data(`/groups/${groupIds.organizers}`, await t.token(id));
    expect(await outboxOf(t, id)).toEqual([
      {
        type: 'group.members_changed',
        data: {
          group: organizers,
          added: [{ profile_id: linusId, chat_user_id: 'U0LINUS001' }],
          removed: [{ profile_id: profileIds.ada, chat_user_id: 'U0ADA00001' }],
        },
      },
      {
        type: 'member.badge_assigned',
        data: {
          badge: { id: badgeIds.speaker, name: 'Speaker' },
          member: {
            id: profileIds.grace,
            email: 'grace@example.com',
            full_name: 'Grace Hopper',
            preferred_name: 'Grace Hopper',
            avatar_url_original: null,
            chat_profile_id: 'U0GRACE001',
            is_deactivated: false,
          },
          assigned_at: '2025-05-01 10:00:00.000000+00',
        },
      },
    ]);
    t.clock.now += 1000;
    try {
      await t.importRecords(id, file);
    } finally {
      t.clock.now -= 1000;
    }
    expect(await outboxOf(t, id)).toHaveLength(2);
  });
});

describe('export and import of badges and groups', () => {
  it('writes them as the API shows them, after the profiles, and imports them back into identical answers', async () => {
    const { id: source, token } = await fresh([...baseRecords, ...badgeGroupRecords]);
    const exported: Record<string, unknown>[] = [];
    for await (const record of exportRecords(t.testStore.store.db, source)) exported.push(record);
    const kinds = exported.map((r) => r['kind']);
    expect(kinds.indexOf('badge')).toBeGreaterThan(kinds.lastIndexOf('profile'));
    const badges = exported.filter((r) => r['kind'] === 'badge');
    const listed = await data('/badges', token);
    expect(badges).toEqual(
      [...listed.records]
        .sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id))
        .map((b: object) => ({ kind: 'badge', ...b })),
    );
    expect(exported.filter((r) => r['kind'] === 'group')).toHaveLength(2);

    const { id: copy, token: copyToken } = await fresh([]);
    await t.importRecords(copy, exported);
    for (const path of ['/badges', '/groups', `/badges/${badgeIds.speaker}`, `/groups/${groupIds.organizers}`])
      expect(await data(path, copyToken), path).toEqual(await data(path, token));
    const again: object[] = [];
    for await (const record of exportRecords(t.testStore.store.db, copy)) again.push(record);
    expect(again).toEqual(exported);
  });
});
