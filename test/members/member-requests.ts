// Helpers shared by the member tests: posting a member over inject or over a real socket.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import type { Scope } from '../../src/tokens/scopes.js';
import type { TestApp } from '../helpers/test-app.js';

export const membersPath = '/admin/v0/members';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function postMember(
  app: FastifyInstance,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: membersPath,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A token and its id (the audit trail names the id). */
export async function tokenWithId(t: TestApp, communityId: string, scopes: Scope[] = ['read', 'members:write']) {
  const created = await createTokensService(t.testStore.store.db, () => t.clock.now).create(communityId, { scopes });
  return { id: created.id, secret: created.secret };
}

/** Starts the app on a real socket and returns its base URL (closed with the app). */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return `http://127.0.0.1:${address.port}`;
}

export async function fetchMember(baseUrl: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${membersPath}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed'),
    body: (await res.json()) as MemberAnswer,
  };
}

export interface MemberAnswer {
  success: boolean;
  message?: string;
  code?: string;
  data?: { member: { id: string; email: string; full_name: string } };
}

export async function profileRows(t: TestApp, communityId: string) {
  return t.testStore.store.db
    .selectFrom('profiles')
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy('created_at')
    .execute();
}

export async function auditRows(t: TestApp, communityId: string) {
  return t.testStore.store.db.selectFrom('audit_log').selectAll().where('community_id', '=', communityId).execute();
}
