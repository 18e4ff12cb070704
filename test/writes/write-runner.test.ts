// The one write path: every writer (members, event writes, the import) commits its audit record and its webhook
// messages with its change, tells this process after the commit and only then; a change without its audit record,
// or one that fails, commits nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { createWebhooksService, newSecret } from '../../src/webhooks/webhooks.service.js';
import { sourceActor } from '../../src/writes/actor.js';
import { UnauditedWrite, type Committed } from '../../src/writes/write-runner.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let acme: string;
let token: string;
const commits: Committed[] = [];

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) =>
  t.app.inject({
    method,
    url: `/admin/v0${url}`,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });

/** The audit records and outbox messages written since `since` (the store's clock is fixed; ids grow by order). */
async function trail() {
  const db = t.testStore.store.db;
  const audit = await db
    .selectFrom('audit_log')
    .select(['action', 'subject_id', 'token_id'])
    .where('community_id', '=', acme)
    .orderBy('created_at')
    .orderBy('action')
    .execute();
  const messages = await db
    .selectFrom('webhook_messages')
    .select('event_type')
    .where('community_id', '=', acme)
    .orderBy('event_type')
    .execute();
  return { audit, messages: messages.map((m) => m.event_type) };
}

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
  await createWebhooksService(t.testStore.store.db).add(acme, 'http://127.0.0.1:9/in', {
    secret: newSecret(),
    allowPrivate: true,
  });
  t.app.writes.committed.subscribe((commit) => commits.push(commit));
  token = await t.token(acme, ['read', 'events:write', 'members:write']);
});
afterAll(() => t.close());

describe('the write runner', () => {
  it('commits every writer with its audit record and its webhook messages, and tells the process after', async () => {
    expect((await t.importRecords(acme, baseRecords)).records).toBe(15);
    // Its two profiles' member.created and import.completed (no event of the file triggers webhooks).
    expect(commits).toEqual([{ communityId: acme, messages: 3, announcements: 0 }]);

    const member = await send('POST', '/members', { email: 'runner.person@example.com', full_name: 'Runner Person' });
    expect(member.statusCode).toBe(201);
    const memberId = (member.json() as { data: { member: { id: string } } }).data.member.id;
    const created = await send('POST', '/calendar_events', {
      title: 'Runner night',
      start_date: '2026-12-01T18:00:00Z',
      end_date: '2026-12-01T20:00:00Z',
      hosts: [profileIds.ada],
      description: { text: 'One way to write' },
      triggers_webhooks: true,
    });
    expect(created.statusCode).toBe(201);
    const eventId = (created.json() as { data: { id: string } }).data.id;
    expect((await send('PATCH', `/calendar_events/${eventId}`, { title: 'Runner night, moved' })).statusCode).toBe(200);
    expect((await send('DELETE', `/calendar_events/${eventId}`)).statusCode).toBe(200);
    expect((await send('POST', `/members/${memberId}/deactivate`)).statusCode).toBe(200);
    // Deactivating twice changes nothing: no record, no message, still one commit told.
    expect((await send('POST', `/members/${memberId}/deactivate`)).statusCode).toBe(200);

    const { audit, messages } = await trail();
    const tokenId = audit.find((a) => a.action === 'member.created')?.token_id;
    expect(audit).toEqual([
      { action: 'calendar_event.created', subject_id: eventId, token_id: tokenId },
      { action: 'calendar_event.deleted', subject_id: eventId, token_id: tokenId },
      { action: 'calendar_event.updated', subject_id: eventId, token_id: tokenId },
      { action: 'import.completed', subject_id: acme, token_id: 'import' },
      { action: 'member.created', subject_id: memberId, token_id: tokenId },
      { action: 'member.deactivated', subject_id: memberId, token_id: tokenId },
    ]);
    expect(messages).toEqual([
      'calendar_event.created',
      'calendar_event.deleted',
      'calendar_event.updated',
      'import.completed',
      'member.created',
      'member.created',
      'member.created',
      'member.deactivated',
    ]);
    expect(commits.slice(1)).toEqual([
      { communityId: acme, messages: 1, announcements: 0 },
      { communityId: acme, messages: 1, announcements: 0 },
      { communityId: acme, messages: 1, announcements: 0 },
      { communityId: acme, messages: 1, announcements: 0 },
      { communityId: acme, messages: 1, announcements: 0 },
      { communityId: acme, messages: 0, announcements: 0 },
    ]);
  });

  it('refuses to commit a change without its audit record, and keeps nothing of it', async () => {
    const before = await trail();
    const told = commits.length;
    await expect(
      t.app.writes.run(sourceActor(acme, 'import'), async (trx, change) => {
        await trx.updateTable('feeds').set({ label: 'Unaudited' }).where('community_id', '=', acme).execute();
        await change.announce([{ type: 'import.completed', data: { records: 0 } }]);
      }),
    ).rejects.toBeInstanceOf(UnauditedWrite);
    const labels = await t.testStore.store.db
      .selectFrom('feeds')
      .select('label')
      .where('community_id', '=', acme)
      .where('label', '=', 'Unaudited')
      .execute();
    expect(labels).toEqual([]);
    expect(await trail()).toEqual(before);
    expect(commits.length).toBe(told);
  });

  it('keeps nothing of a change that fails after its audit record and messages, and tells nobody', async () => {
    const before = await trail();
    const told = commits.length;
    await expect(
      t.app.writes.run(sourceActor(acme, 'import'), async (_trx, change) => {
        await change.audit('import.completed', acme, { records: 0 });
        await change.announce([{ type: 'import.completed', data: { records: 0 } }]);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await trail()).toEqual(before);
    expect(commits.length).toBe(told);
  });
});
