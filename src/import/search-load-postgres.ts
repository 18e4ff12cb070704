// PostgreSQL: the search rows of a community that has none (an import into an empty one), written in one pass
// after its rows while the search triggers skip them (`hearth.defer_search`, migration 007).
import { postgresDocument, searchTableOf, type SearchSource } from './search-load-documents.js';

/**
 * Three statements with the community as a literal (CREATE TABLE AS takes no parameters): the documents into a
 * temporary table, then inserted into the index (no conflict to handle: the import may have dropped the key), then
 * the table dropped. CREATE TABLE AS may run its query in parallel workers, which INSERT … SELECT may not: the
 * documents, most of the load's time, are computed on every core, faster than in one statement
 * (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export function postgresSearchLoad(source: SearchSource, communityId: string): string[] {
  const index = searchTableOf(source);
  const community = `'${communityId.replaceAll("'", "''")}'`;
  const docs = `hearth_load_${index}`;
  return [
    `create temporary table ${docs} as
      select p.community_id, p.id, p.created_at, ${postgresDocument(source, 'p')} as document
      from ${source} p where p.community_id = ${community}`,
    `insert into ${index} (community_id, id, created_at, document)
      select community_id, id, created_at, document from ${docs}`,
    `drop table ${docs}`,
  ];
}
