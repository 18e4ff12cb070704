// Badges: the list and one badge with their holders, and assigning one to members by chat user id (additive,
// idempotent per member, audited, announced, replayed with an Idempotency-Key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, badgeIds, linusId } from '../../fixtures/badges-groups.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditOf, outboxOf, send } from '../helpers/write-requests.js';

let t: TestApp;
let acme: string;
let reader: string;
let writer: string;

const speaker = {
  id: badgeIds.speaker,
  name: 'Speaker',
  description: 'Gave a talk at a meetup',
  created_at: '2025-03-01 10:00:00.000000+00',
  updated_at: '2025-03-02 10:00:00.000000+00',
  members_count: 1,
  members: [{ profile_id: profileIds.ada, chat_user_id: 'U0ADA00001', assigned_at: '2025-03-02 10:00:00.000000+00' }],
};
const mentor = {
  id: badgeIds.mentor,
  name: 'Mentor',
  description: null,
  created_at: '2025-03-01 11:00:00.000000+00',
  updated_at: '2025-03-01 11:00:00.000000+00',
  members_count: 0,
  members: [],
};
const now = '2026-03-10 12:00:00.000000+00';

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token: reader } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
  writer = await t.token(acme, ['read', 'members:write']);
});
afterAll(() => t.close());

describe('reading badges', () => {
  it('lists every badge by name with its holders, paginated like other lists', async () => {
    const res = await t.get('/admin/v0/badges', reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        page: 0,
        per_page: 10,
        count: 2,
        total_records: 2,
        total_pages: 1,
        has_next: false,
        records: [mentor, speaker],
      },
    });
    const second = await t.get('/admin/v0/badges?page=1&per_page=1', reader);
    expect(second.json().data).toEqual({
      page: 1,
      per_page: 1,
      count: 1,
      total_records: 2,
      total_pages: 2,
      has_next: false,
      records: [speaker],
    });
  });

  it('answers one badge, with an ETag that answers 304', async () => {
    const res = await t.get(`/admin/v0/badges/${badgeIds.speaker}`, reader);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true, data: speaker }]);
    const etag = String(res.headers['etag']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await t.get(`/admin/v0/badges/${badgeIds.speaker}`, reader, { 'if-none-match': etag });
    expect([again.statusCode, again.body]).toEqual([304, '']);
  });
});

describe('assigning a badge', () => {
  it('adds the members named by chat user id, keeps those who held it, audits and announces the new ones', async () => {
    const community = (await t.seed('assign', [...baseRecords, ...badgeGroupRecords])).community;
    const token = await t.token(community, ['read', 'members:write']);
    const hook = await createWebhooksService(t.testStore.store.db).add(community, 'http://127.0.0.1:9/hook', {
      events: 'member.badge_assigned',
      allowPrivate: true,
    });
    const res = await send(
      t.app,
      'POST',
      `/badges/${badgeIds.speaker}/assign`,
      token,
      { users: ['U0LINUS001', 'U0ADA00001', 'U0GRACE001', 'U0LINUS001'] },
      { 'x-request-id': 'req-assign-1' },
    );
    const assigned = {
      ...speaker,
      updated_at: now,
      members_count: 3,
      members: [
        ...speaker.members,
        { profile_id: profileIds.grace, chat_user_id: 'U0GRACE001', assigned_at: now },
        { profile_id: linusId, chat_user_id: 'U0LINUS001', assigned_at: now },
      ],
    };
    expect([res.statusCode, res.json()]).toEqual([200, { success: true, data: assigned }]);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await t.get(`/admin/v0/badges/${badgeIds.speaker}`, token)).json().data).toEqual(assigned);
    expect(await auditOf(t, community)).toEqual([
      {
        action: 'badge.assigned',
        subject_id: badgeIds.speaker,
        detail: { name: 'Speaker', profile_ids: [linusId, profileIds.grace] },
        request_id: 'req-assign-1',
      },
    ]);
    const badge = { id: badgeIds.speaker, name: 'Speaker' };
    const member = (id: string, email: string, name: string, chat: string) => ({
      id,
      email,
      full_name: name,
      preferred_name: name,
      avatar_url_original: null,
      chat_profile_id: chat,
      is_deactivated: false,
    });
    const messages = await outboxOf(t, community);
    expect(messages).toEqual(
      [
        {
          type: 'member.badge_assigned',
          data: {
            badge,
            member: member(profileIds.grace, 'grace@example.com', 'Grace Hopper', 'U0GRACE001'),
            assigned_at: now,
          },
        },
        {
          type: 'member.badge_assigned',
          data: {
            badge,
            member: member(linusId, 'linus@example.com', 'Linus Pauling', 'U0LINUS001'),
            assigned_at: now,
          },
        },
      ].sort((a, b) => JSON.stringify(a.data).localeCompare(JSON.stringify(b.data))),
    );
    expect(hook.event_types).toEqual(['member.badge_assigned']);

    // Assigning it again to holders is no change: the same answer, no audit record, no message.
    t.clock.now += 60_000;
    try {
      const again = await send(t.app, 'POST', `/badges/${badgeIds.speaker}/assign`, token, { users: ['U0GRACE001'] });
      expect([again.statusCode, again.json()]).toEqual([200, { success: true, data: assigned }]);
    } finally {
      t.clock.now -= 60_000;
    }
    expect((await auditOf(t, community)).map((r) => r.action)).toEqual(['badge.assigned']);
    expect(await outboxOf(t, community)).toHaveLength(2);
  });

  it('replays the answer to a retry with the same Idempotency-Key, and refuses the key for another badge', async () => {
    const headers = { 'idempotency-key': 'assign-mentor-1' };
    const first = await send(
      t.app,
      'POST',
      `/badges/${badgeIds.mentor}/assign`,
      writer,
      { users: ['U0GRACE001'] },
      headers,
    );
    const mentored = {
      ...mentor,
      updated_at: now,
      members_count: 1,
      members: [{ profile_id: profileIds.grace, chat_user_id: 'U0GRACE001', assigned_at: now }],
    };
    expect([first.statusCode, first.json()]).toEqual([200, { success: true, data: mentored }]);
    const replay = await send(
      t.app,
      'POST',
      `/badges/${badgeIds.mentor}/assign`,
      writer,
      { users: ['U0GRACE001'] },
      headers,
    );
    expect([replay.statusCode, replay.json(), replay.headers['idempotent-replayed']]).toEqual([
      200,
      { success: true, data: mentored },
      'true',
    ]);
    // Only a token in hosted field-name mode gets the hosted product's name of the header.
    expect(replay.headers['x-idempotent-replayed']).toBeUndefined();
    const elsewhere = await send(
      t.app,
      'POST',
      `/badges/${badgeIds.speaker}/assign`,
      writer,
      { users: ['U0GRACE001'] },
      headers,
    );
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([422, 'idempotency_key_reused']);
    expect((await auditOf(t, acme)).filter((r) => r.action === 'badge.assigned')).toHaveLength(1);
  });
});

describe('in hosted field-name mode', () => {
  it('answers badges with slack_user_id and trimmed timestamps; a replay carries X-Idempotent-Replayed too', async () => {
    const hosted = await t.token(acme, ['read', 'members:write'], { fieldNames: 'hosted' });
    expect((await t.get(`/admin/v0/badges/${badgeIds.speaker}`, hosted)).json().data).toEqual({
      ...speaker,
      created_at: '2025-03-01 10:00:00+00',
      updated_at: '2025-03-02 10:00:00+00',
      members: [{ profile_id: profileIds.ada, slack_user_id: 'U0ADA00001', assigned_at: '2025-03-02 10:00:00+00' }],
    });
    const headers = { 'idempotency-key': 'hosted-assign-1' };
    const body = { users: ['U0ADA00001'] };
    const first = await send(t.app, 'POST', `/badges/${badgeIds.speaker}/assign`, hosted, body, headers);
    const replay = await send(t.app, 'POST', `/badges/${badgeIds.speaker}/assign`, hosted, body, headers);
    expect([
      replay.statusCode,
      replay.json(),
      replay.headers['idempotent-replayed'],
      replay.headers['x-idempotent-replayed'],
    ]).toEqual([200, first.json(), 'true', 'true']);
    expect(first.json().data.members[0]).toEqual({
      profile_id: profileIds.ada,
      slack_user_id: 'U0ADA00001',
      assigned_at: '2025-03-02 10:00:00+00',
    });
  });
});
