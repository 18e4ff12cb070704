// Search on SQLite: FTS5 MATCH confined to the community's docid range, ranked by bm25 (title 10, body 1).
import { sql, type RawBuilder } from 'kysely';
import type { SearchHits, SearchIndex, SearchKind, SearchWindow } from './search-index.js';
import { toFts5Match } from './search-query.js';

const tables: Record<SearchKind, { fts: string; docs: string; weights: RawBuilder<unknown> }> = {
  post: { fts: 'post_search', docs: 'post_search_docs', weights: sql.raw('10.0, 1.0') },
  comment: { fts: 'comment_search', docs: 'comment_search_docs', weights: sql.raw('1.0') },
};

/** The total when the window already proves it, so that the count over every match runs only when needed. */
function totalFromWindow(found: number, window: SearchWindow): number | null {
  if (found > 0 && found < window.limit) return window.offset + found;
  if (found === 0 && window.offset === 0) return 0;
  return null;
}

export const sqliteSearchIndex: SearchIndex = {
  async search(db, kind, communityId, query, window): Promise<SearchHits> {
    const match = toFts5Match(query);
    if (match === null) return { ids: [], total: 0 };
    const { fts: ftsName, docs: docsName, weights } = tables[kind];
    const fts = sql.table(ftsName);
    const docs = sql.table(docsName);
    // The community's docid range (migration 002); no number yet means no document yet, and NULL bounds match nothing.
    const inCommunity = sql`${fts}.rowid between
      (select number * 4294967296 from search_communities where community_id = ${communityId}) and
      (select number * 4294967296 + 4294967295 from search_communities where community_id = ${communityId})`;

    // CROSS JOIN keeps FTS5 as the outer loop: SQLite must not walk the community's docs and probe the index per row.
    const page = await sql<{ id: string }>`
      select d.id as id from ${fts} cross join ${docs} d on d.docid = ${fts}.rowid
      where ${fts} match ${match} and ${inCommunity} and d.community_id = ${communityId}
      order by bm25(${fts}, ${weights}), d.created_at desc, d.id desc
      limit ${window.limit} offset ${window.offset}`.execute(db);
    const ids = page.rows.map((row) => row.id);

    let total = totalFromWindow(ids.length, window);
    if (total === null) {
      // Doclists only: no row of posts, comments or docs is read to count.
      const counted = await sql<{ total: number }>`
        select count(*) as total from ${fts} where ${fts} match ${match} and ${inCommunity}`.execute(db);
      total = Number(counted.rows[0]?.total ?? 0);
    }
    return { ids, total };
  },
};
