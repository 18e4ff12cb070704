// The audit trail read by record (issue 39): whether an event was deleted is asked of the audit log by the event's
// id, so registering for a deleted event can be refused as such (422 event_deleted) instead of as unknown.
import type { Kysely } from 'kysely';

export function auditBySubjectMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('audit_log_subject')
        .on('audit_log')
        .columns(['community_id', 'subject_id', 'action'])
        .execute();
    },
  };
}
