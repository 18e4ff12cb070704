// Writing and reading the audit trail; every committed change (API writes, imports) leaves one record.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { readJson, writeJson } from '../db/json.js';
import { newUuid } from '../lib/ids.js';
import { insertAuditRecord, listAuditRecords } from './audit.repository.js';

export type AuditAction =
  | 'member.created'
  | 'member.updated'
  | 'member.deactivated'
  | 'calendar_event.created'
  | 'calendar_event.updated'
  | 'calendar_event.deleted'
  | 'calendar_event.user_registered'
  | 'calendar_event.user_unregistered'
  | 'badge.assigned'
  | 'group.members_changed'
  | 'import.completed'
  | 'slack.event_applied';

export interface AuditEntry {
  communityId: string;
  tokenId: string;
  action: AuditAction;
  subjectId: string;
  detail: Record<string, unknown>;
  requestId: string;
  /** Stored timestamp. */
  at: string;
}

export interface AuditRecord {
  id: string;
  created_at: string;
  token_id: string;
  action: string;
  subject_id: string;
  detail: Record<string, unknown>;
  request_id: string;
}

/** Records an entry with `db`, which may be the transaction of the change itself. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await insertAuditRecord(db, {
    id: newUuid(),
    community_id: entry.communityId,
    token_id: entry.tokenId,
    action: entry.action,
    subject_id: entry.subjectId,
    detail: writeJson(entry.detail),
    request_id: entry.requestId,
    created_at: entry.at,
  });
}

export async function listAudit(db: Kysely<Database>, communityId: string, limit: number): Promise<AuditRecord[]> {
  const rows = await listAuditRecords(db, communityId, limit);
  return rows.map((row) => ({
    id: row.id,
    created_at: row.created_at,
    token_id: row.token_id,
    action: row.action,
    subject_id: row.subject_id,
    detail: readJson<Record<string, unknown>>(row.detail),
    request_id: row.request_id,
  }));
}
