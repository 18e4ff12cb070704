// Groups: the list and one group with its members, and replacing a group's members by chat user id (those who stay
// keep their added_at; the same list again is no change), audited and announced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, groupIds, linusId } from '../../fixtures/badges-groups.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { auditOf, outboxOf, send } from '../helpers/write-requests.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let reader: string;

const ada = { profile_id: profileIds.ada, chat_user_id: 'U0ADA00001', added_at: '2025-03-01 10:00:00.000000+00' };
const grace = { profile_id: profileIds.grace, chat_user_id: 'U0GRACE001', added_at: '2025-03-03 10:00:00.000000+00' };
const organizers = {
  id: groupIds.organizers,
  name: 'Organizers',
  description: 'Plan the meetups',
  created_at: '2025-03-01 10:00:00.000000+00',
  updated_at: '2025-03-03 10:00:00.000000+00',
  members_count: 2,
  members: [ada, grace],
};
const volunteers = {
  id: groupIds.volunteers,
  name: 'Volunteers',
  description: null,
  created_at: '2025-03-01 12:00:00.000000+00',
  updated_at: '2025-03-01 12:00:00.000000+00',
  members_count: 0,
  members: [],
};
const now = '2026-03-10 12:00:00.000000+00';

beforeAll(async () => {
  t = await createTestApp();
  ({ token: reader } = await t.seed('acme', [...baseRecords, ...badgeGroupRecords]));
});
afterAll(() => t.close());

/** Runs `work` with the clock moved on by `ms`. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  t.clock.now += ms;
  try {
    return await work();
  } finally {
    t.clock.now -= ms;
  }
}

describe('reading groups', () => {
  it('lists every group by name with its members, by added_at, paginated like other lists', async () => {
    const res = await t.get('/admin/v0/groups?per_page=1', reader);
    expect([res.statusCode, res.json()]).toEqual([
      200,
      {
        success: true,
        data: {
          page: 0,
          per_page: 1,
          count: 1,
          total_records: 2,
          total_pages: 2,
          has_next: true,
          records: [organizers],
        },
      },
    ]);
    expect((await t.get('/admin/v0/groups?page=1&per_page=1', reader)).json().data.records).toEqual([volunteers]);
    expect((await t.get('/admin/v0/groups?page=2&per_page=1', reader)).json().data).toEqual({
      page: 2,
      per_page: 1,
      count: 0,
      total_records: 2,
      total_pages: 2,
      has_next: false,
      records: [],
    });
  });

  it('answers one group, with an ETag that answers 304', async () => {
    const res = await t.get(`/admin/v0/groups/${groupIds.organizers}`, reader);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true, data: organizers }]);
    const again = await t.get(`/admin/v0/groups/${groupIds.organizers}`, reader, {
      'if-none-match': String(res.headers['etag']),
    });
    expect(again.statusCode).toBe(304);
  });
});

describe("replacing a group's members", () => {
  it('makes the members named the whole group: who stays keeps added_at, who leaves goes; audited and announced once', async () => {
    const { community, token: writer } = await t.seed(
      'replace',
      [...baseRecords, ...badgeGroupRecords],
      ['read', 'members:write'],
    );
    await createWebhooksService(t.testStore.store.db).add(community, 'http://127.0.0.1:9/hook', {
      events: 'group.*',
      allowPrivate: true,
    });
    const res = await send(
      t.app,
      'PUT',
      `/groups/${groupIds.organizers}/members`,
      writer,
      { users: ['U0LINUS001', 'U0GRACE001', 'U0LINUS001'] },
      { 'x-request-id': 'req-put-1' },
    );
    const replaced = {
      ...organizers,
      updated_at: now,
      members_count: 2,
      members: [grace, { profile_id: linusId, chat_user_id: 'U0LINUS001', added_at: now }],
    };
    expect([res.statusCode, res.json()]).toEqual([200, { success: true, data: replaced }]);
    expect((await t.get(`/admin/v0/groups/${groupIds.organizers}`, writer)).json().data).toEqual(replaced);
    expect(await auditOf(t, community)).toEqual([
      {
        action: 'group.members_changed',
        subject_id: groupIds.organizers,
        detail: { name: 'Organizers', added: [linusId], removed: [profileIds.ada] },
        request_id: 'req-put-1',
      },
    ]);
    expect(await outboxOf(t, community)).toEqual([
      {
        type: 'group.members_changed',
        data: {
          group: replaced,
          added: [{ profile_id: linusId, chat_user_id: 'U0LINUS001' }],
          removed: [{ profile_id: profileIds.ada, chat_user_id: 'U0ADA00001' }],
        },
      },
    ]);

    // The same members again, in another order: no change, no audit record, no message.
    const again = await later(60_000, () =>
      send(t.app, 'PUT', `/groups/${groupIds.organizers}/members`, writer, { users: ['U0GRACE001', 'U0LINUS001'] }),
    );
    expect([again.statusCode, again.json()]).toEqual([200, { success: true, data: replaced }]);
    expect(await auditOf(t, community)).toHaveLength(1);
    expect(await outboxOf(t, community)).toHaveLength(1);

    // An empty list empties the group.
    const emptied = await later(120_000, () =>
      send(t.app, 'PUT', `/groups/${groupIds.organizers}/members`, writer, { users: [] }),
    );
    const empty = { ...replaced, updated_at: '2026-03-10 12:02:00.000000+00', members_count: 0, members: [] };
    expect(emptied.json().data).toEqual(empty);
    expect((await outboxOf(t, community)).at(-1)?.data).toEqual({
      group: empty,
      added: [],
      removed: [
        { profile_id: profileIds.grace, chat_user_id: 'U0GRACE001' },
        { profile_id: linusId, chat_user_id: 'U0LINUS001' },
      ],
    });
  });
});
