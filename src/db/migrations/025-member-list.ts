// The console's members list (issue 41): an index holding what the list filters, searches and orders by, so that a
// page's ids and the count of matches are read from the index alone, not from 50,000 profile rows.
import type { Kysely } from 'kysely';

export function memberListMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('profiles_member_list')
        .on('profiles')
        .columns(['community_id', 'email_key', 'deactivated_at', 'preferred_name', 'first_name', 'last_name', 'id'])
        .execute();
    },
  };
}
