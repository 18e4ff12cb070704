// PostgreSQL's search triggers blank punctuation with regexp_replace instead of translate (same words, faster:
// see 002-search.ts); the triggers of a store made before are created again from 002's definition.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';
import { postgresSearchFunction } from './002-search.js';

export function searchPunctuationMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (store !== 'postgres') return;
      for (const source of ['posts', 'comments'] as const)
        await sql.raw(postgresSearchFunction(source, true)).execute(db);
    },
  };
}
