// Title hits found without reading every match (search beyond its rank budget): a PostgreSQL index of the title's lexemes.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/**
 * The title's lexemes of a post's search document (`document` spelled as the query names the column):
 * its weight-A part, as migration 002 weighs the title A and the body B. The search query
 * (search/postgres-search-index.ts) spells it alike, or PostgreSQL would not use the index.
 */
const titleLexemes = (document: string): string => `ts_filter(${document}, '{a}'::"char"[])`;

/**
 * PostgreSQL: a GIN index over (community_id, the title's lexemes), so that the posts with a query word
 * in their title are found inside the index, as the document index finds every match; no column or
 * trigger to keep in step. SQLite needs nothing: FTS5's column filter (`{title} : ...`) does the same.
 */
export function searchTopkMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (store !== 'postgres') return;
      await sql
        .raw(`create index post_search_title on post_search using gin (community_id, (${titleLexemes('document')}))`)
        .execute(db);
    },
  };
}
