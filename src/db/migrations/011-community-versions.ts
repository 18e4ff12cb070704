// Versions per community: a community's fragments take their versions (and so its ETags) from its own counter, which
// another community's writes never move. Each counter starts at the store-wide counter's last version, above every
// version handed out before, so that no ETag given before the upgrade can match an answer made after it; the
// store-wide counter is dropped (PostgreSQL's change check sums the communities' counters instead).
import { sql, type Kysely } from 'kysely';

export function communityVersionsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('communities')
        .addColumn('fragment_version', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update communities set fragment_version = coalesce((select max(version) from store_state), 0)`.execute(
        db,
      );
      await db.schema.dropTable('store_state').execute();
    },
  };
}
