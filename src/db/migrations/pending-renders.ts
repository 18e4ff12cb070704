// Fragments a migration leaves to be rendered once the store is migrated (the pending_renders table): a migration
// cannot render with today's renderer, which reads today's schema, not the schema of the migration's day.
import { sql, type Kysely } from 'kysely';

/** Fragment kinds as the fragments table names them. */
export type PendingKind = 'profile' | 'feed' | 'tag' | 'event' | 'post';

/** One row per community and kind: every record of that kind in that community is to be rendered. */
export async function createPendingRenders(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_renders')
    .ifNotExists()
    .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pending_renders_pk', ['community_id', 'kind'])
    .execute();
}

/**
 * Marks every record of `kinds` in every community. A store without communities marks nothing and gets the table
 * from migration 010, so that the migration calling this makes the same schema of a fresh store as it always did.
 */
export async function markPending(db: Kysely<unknown>, kinds: readonly PendingKind[]): Promise<void> {
  const { rows } = await sql`select 1 from communities limit 1`.execute(db);
  if (rows.length === 0) return;
  await createPendingRenders(db);
  for (const kind of kinds) {
    await sql`insert into pending_renders (community_id, kind)
      select c.id, ${sql.lit(kind)} from communities c
      where not exists (select 1 from pending_renders p where p.community_id = c.id and p.kind = ${sql.lit(kind)})`.execute(
      db,
    );
  }
}
