// Helpers of the badge, group and import tests: a write request, and the audit records and outbox messages a change left.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/test-app.js';

export function send(
  app: FastifyInstance,
  method: 'POST' | 'PUT',
  url: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/admin/v0${url}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The community's audit records but the imports' (made at the same clock time as the writes), oldest first. */
export async function auditOf(t: TestApp, communityId: string) {
  const rows = await t.testStore.store.db
    .selectFrom('audit_log')
    .select(['action', 'subject_id', 'detail', 'request_id'])
    .where('community_id', '=', communityId)
    .where('action', '!=', 'import.completed')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    action: row.action,
    subject_id: row.subject_id,
    detail: typeof row.detail === 'string' ? (JSON.parse(row.detail) as unknown) : row.detail,
    request_id: row.request_id,
  }));
}

/** The messages queued for the community's webhooks, oldest first (those of one change by their payload), as (type, data). */
export async function outboxOf(t: TestApp, communityId: string) {
  const rows = await t.testStore.store.db
    .selectFrom('webhook_messages')
    .select(['event_type', 'payload'])
    .where('community_id', '=', communityId)
    .orderBy('created_at')
    .orderBy('payload')
    .execute();
  return rows.map((row) => ({
    type: row.event_type,
    data: (JSON.parse(row.payload) as { data: unknown }).data,
  }));
}
