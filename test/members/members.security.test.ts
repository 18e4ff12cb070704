// Who may add members (scopes, tokens, tenants), and the audit trail each successful add leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/audit/audit.service.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditRows, membersPath, postMember, profileRows, tokenWithId } from './member-requests.js';

let t: TestApp;
let acme: string;

beforeAll(async () => {
  t = await createTestApp();
  acme = await t.community('acme');
});
afterAll(() => t.close());

const body = { email: 'guarded@example.com', full_name: 'Guarded Member' };

describe('scopes and tokens', () => {
  it('refuses a read-only token with 403 insufficient_scope, naming the scope needed and held', async () => {
    const readOnly = await t.token(acme, ['read']);
    const res = await postMember(t.app, readOnly, body, { 'x-request-id': 'req-403' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      error: "This operation needs the 'members:write' scope; the token has: read.",
      code: 'insufficient_scope',
      request_id: 'req-403',
    });
    expect(await profileRows(t, acme)).toEqual([]);
    expect(await auditRows(t, acme)).toEqual([]);
  });

  it('refuses a missing token with 401 and WWW-Authenticate, before reading the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: membersPath,
      payload: '{not json',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-401' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({
      success: false,
      error: 'Missing or malformed Authorization header; expected "Bearer <token>".',
      code: 'unauthorized',
      request_id: 'req-401',
    });
  });

  it('refuses a revoked token', async () => {
    const { id, secret } = await tokenWithId(t, acme);
    expect(await createTokensService(t.testStore.store.db).revoke(id)).toBe(true);
    // Never used before the revocation, so no principal of it is held: refused at once.
    const res = await postMember(t.app, secret, body);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('lets a members:write token add members without read, but not read', async () => {
    const writeOnly = await t.token(acme, ['members:write']);
    expect((await postMember(t.app, writeOnly, body)).statusCode).toBe(201);
    const read = await t.get('/admin/v0/calendar_events', writeOnly);
    expect(read.statusCode).toBe(403);
    expect(read.json().error).toBe("This operation needs the 'read' scope; the token has: members:write.");
  });

  it('answers 405 with Allow for another method on the path', async () => {
    const writer = await t.token(acme, ['members:write']);
    const res = await t.app.inject({ method: 'GET', url: membersPath, headers: { authorization: `Bearer ${writer}` } });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('POST');
  });

  it("confines the member to the token's community", async () => {
    const other = await t.community('elsewhere');
    const otherToken = await t.token(other, ['read', 'members:write']);
    const res = await postMember(t.app, otherToken, { email: 'only-there@example.com', full_name: 'Only There' });
    expect(res.statusCode).toBe(201);
    expect((await profileRows(t, acme)).map((r) => r.email_key)).not.toContain('only-there@example.com');
    expect((await profileRows(t, other)).map((r) => r.email_key)).toEqual(['only-there@example.com']);
    // Nor can the first community name it: its id does not exist there.
    await expect(
      t.importRecords(acme, [
        {
          kind: 'calendar_event',
          id: 'evelsewhere1',
          start_date: '2026-04-01T10:00:00Z',
          hosts: [res.json().data.member.id],
        },
      ]),
    ).rejects.toThrow(/does not exist in the file or the community/);
  });
});

describe('audit trail', () => {
  it('records who added or updated which member, when, under which request', async () => {
    const audited = await t.community('audited');
    const writer = await tokenWithId(t, audited);
    const first = await postMember(
      t.app,
      writer.secret,
      { email: 'Audit@Example.com', full_name: 'Au Dit' },
      { 'x-request-id': 'req-audit-1' },
    );
    const id: string = first.json().data.member.id;
    t.clock.now += 5000;
    try {
      await postMember(
        t.app,
        writer.secret,
        { email: 'audit@example.com', full_name: 'Au Dited' },
        { 'x-request-id': 'req-audit-2' },
      );
    } finally {
      t.clock.now -= 5000;
    }
    const records = await listAudit(t.testStore.store.db, audited, 10);
    expect(records).toEqual([
      {
        id: records[0]?.id,
        created_at: '2026-03-10 12:00:05.000000',
        token_id: writer.id,
        action: 'member.updated',
        subject_id: id,
        detail: { email: 'Audit@Example.com' },
        request_id: 'req-audit-2',
      },
      {
        id: records[1]?.id,
        created_at: '2026-03-10 12:00:00.000000',
        token_id: writer.id,
        action: 'member.created',
        subject_id: id,
        detail: { email: 'Audit@Example.com' },
        request_id: 'req-audit-1',
      },
    ]);
  });

  it('records nothing for refused, invalid or replayed requests', async () => {
    const quiet = await t.community('quiet');
    const writer = await t.token(quiet, ['members:write']);
    const reader = await t.token(quiet, ['read']);
    await postMember(t.app, reader, body);
    await postMember(t.app, writer, { email: 'not an e-mail', full_name: 'No Body' });
    await postMember(
      t.app,
      writer,
      { email: 'once@example.com', full_name: 'Only Once' },
      { 'idempotency-key': 'once' },
    );
    await postMember(
      t.app,
      writer,
      { email: 'once@example.com', full_name: 'Only Once' },
      { 'idempotency-key': 'once' },
    );
    expect((await auditRows(t, quiet)).map((r) => r.action)).toEqual(['member.created']);
  });
});
