// SQL for the audit trail: who changed what, when, under which request.
import type { Insertable, Kysely, Selectable } from 'kysely';
import { reusedQuery } from '../db/compiled-query.js';
import type { AuditLogTable, Database } from '../db/database.js';

export type AuditRow = Selectable<AuditLogTable>;

// Every change writes one (a Slack applier's change one per event): compiled once.
const insertQuery = reusedQuery<[string, string, string, string, string, string, string, string]>((db, $) =>
  db.insertInto('audit_log').values({
    id: $(0),
    community_id: $(1),
    token_id: $(2),
    action: $(3),
    subject_id: $(4),
    detail: $(5),
    request_id: $(6),
    created_at: $(7),
  }),
);

export async function insertAuditRecord(db: Kysely<Database>, record: Insertable<AuditLogTable>): Promise<void> {
  await insertQuery.affected(
    db,
    record.id,
    record.community_id,
    record.token_id,
    record.action,
    record.subject_id,
    record.detail,
    record.request_id,
    record.created_at,
  );
}

/** Newest first; records of one instant keep a stable order by id. */
export function listAuditRecords(db: Kysely<Database>, communityId: string, limit: number): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('community_id', '=', communityId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
