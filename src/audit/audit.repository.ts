// SQL for the audit trail: who changed what, when, under which request.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../db/database.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditRecord(db: Kysely<Database>, record: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(record).execute();
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
