// What the pipelined and bulk import need of PostgreSQL: foreign keys checked at commit when a transaction asks,
// and search triggers a bulk import may switch off for its own transaction (SQLite needs neither: see import/write-store.ts).
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';
import { postgresSearchFunction } from './002-search.js';

/** The foreign keys between a file's records: a file may name a record before the line that defines it. */
const deferrable: readonly [string, string][] = [
  ['event_profiles', 'event_profiles_profile'],
  ['event_tags', 'event_tags_tag'],
  ['posts', 'posts_feed'],
  ['posts', 'posts_author'],
  ['comments', 'comments_post'],
  ['comments', 'comments_author'],
];

export function bulkImportMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (store !== 'postgres') return;
      // Still checked at every statement unless a transaction says `set constraints all deferred`.
      for (const [table, constraint] of deferrable) {
        await sql.raw(`alter table ${table} alter constraint ${constraint} deferrable initially immediate`).execute(db);
      }
      for (const source of ['posts', 'comments'] as const)
        await sql.raw(postgresSearchFunction(source, true)).execute(db);
    },
  };
}
