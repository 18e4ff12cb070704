// SQLite: the search documents of one community's rows written by an import, in one pass after its rows while the
// search triggers are dropped (write-store.ts); docids and FTS rows as the insert trigger of migration 002 makes them.
import { searchTableOf, sqliteColumns, sqliteTexts, type SearchSource } from './search-load-documents.js';

/** Where a community's documents end before the import writes: its source table's last rowid, its last docid. */
export interface SearchMark {
  docid_after: number;
  row_after: number;
}

/** The docids of a community's search documents lie in [s.number * 2^32, s.number * 2^32 + 2^32 - 1]. */
const DOCID_RANGE_END = 'number * 4294967296 + 4294967295';

/**
 * The documents of the rows written after `mark`, in two statements: docids, in insertion order as the insert
 * trigger numbers them, then FTS rows. Both walk rowid ranges, the rows written since and not the community's older
 * ones. The FTS rows go in docid order: FTS5 writes its pending terms out as a new segment whenever a rowid arrives
 * below the last one, so rows in the docs index's (community, id) order made a segment per document and merged them
 * again (measured: bench/analysis.md, 'Figures behind the code's choices').
 *
 * Into a community that was empty (`bulk`), every row after the mark is new and has no document: a row's docid is
 * its rowid's distance past the mark, and the FTS rows are read from the source table in the same walk, where a
 * populated community's are looked up by (community, id) for each document (at a million posts, a random page of
 * the source's key index for each, with the check that the row has no document yet). Rows written in one
 * transaction take consecutive rowids, so the two numberings agree; a gap would only leave a docid unused.
 */
export function sqliteSearchLoad(
  source: SearchSource,
  bulk: boolean,
  mark: SearchMark,
  communityId: string,
): { sql: string; parameters: unknown[] }[] {
  const index = searchTableOf(source);
  const docs = `${index}_docs`;
  const names = sqliteColumns(source);
  const texts = sqliteTexts(source, 'p');
  const { docid_after: docid, row_after: row } = mark;
  const after = `from ${source} p where p.rowid > ? and +p.community_id = ?`;
  if (bulk) {
    const parameters = [docid, row, row, communityId];
    return [
      {
        // OR FAIL: no statement journal (see db/batch.ts); a row cannot fail here but would fail the import.
        sql: `insert or fail into ${docs} (docid, community_id, id, created_at)
          select ? + (p.rowid - ?), p.community_id, p.id, p.created_at ${after} order by p.rowid`,
        parameters,
      },
      {
        sql: `insert into ${index} (rowid, ${names}) select ? + (p.rowid - ?), ${texts} ${after} order by p.rowid`,
        parameters,
      },
    ];
  }
  return [
    {
      sql: `insert into ${docs} (docid, community_id, id, created_at)
        select ? + row_number() over (order by p.rowid), p.community_id, p.id, p.created_at
        ${after} and not exists (select 1 from ${docs} x where x.community_id = p.community_id and x.id = p.id)
        order by p.rowid`,
      parameters: [docid, row, communityId],
    },
    {
      sql: `insert into ${index} (rowid, ${names})
        select d.docid, ${texts} from ${docs} d join ${source} p on p.community_id = d.community_id and p.id = d.id
        where d.docid > ? and d.docid <= (select ${DOCID_RANGE_END} from search_communities where community_id = ?)
          and +d.community_id = ?
        order by d.docid`,
      parameters: [docid, communityId, communityId],
    },
  ];
}

/** The statement that reads a `SearchMark` (parameter: the community). */
export function sqliteSearchMark(source: SearchSource): string {
  const docs = `${searchTableOf(source)}_docs`;
  return `select (select coalesce(max(rowid), 0) from ${source}) as row_after,
      coalesce((select max(d.docid) from ${docs} d where d.docid between s.number * 4294967296 and s.${DOCID_RANGE_END}), s.number * 4294967296) as docid_after
    from search_communities s where s.community_id = ?`;
}
