// The console's people (issue 41): operators known by e-mail, the communities each may manage (none listed: all),
// their one-time sign-in links and their sessions. Links and sessions are kept only as SHA-256 of their secrets.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function operatorsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('operators')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // Lowercased: one operator per address, however it is typed.
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('operator_communities')
        .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('operator_communities_pk', ['operator_id', 'community_id'])
        .execute();
      await db.schema
        .createTable('operator_links')
        .addColumn('secret_hash', 'text', (c) => c.primaryKey())
        .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema
        .createTable('operator_sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('last_seen_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();
      await db.schema.createIndex('operator_links_operator').on('operator_links').column('operator_id').execute();
    },
  };
}
