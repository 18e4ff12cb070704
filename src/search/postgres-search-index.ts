// Search on PostgreSQL: tsquery over the (community_id, document) GIN index, ranked by ts_rank (title A 1.0, body B 0.1).
import { sql } from 'kysely';
import type { SearchHits, SearchIndex, SearchKind } from './search-index.js';
import { toTsquery, type SearchQuery } from './search-query.js';

const tables: Record<SearchKind, string> = { post: 'post_search', comment: 'comment_search' };

/** Weights {D, C, B, A}: a title hit counts ten body hits, as bm25's column weights do on SQLite. */
const WEIGHTS = sql.raw(`'{0, 0, 0.1, 1}'::real[]`);
/** Normalization 1: rank / (1 + log(length)), so that long documents do not win on length alone (bm25 does alike). */
const LENGTH_NORMALIZATION = sql.raw('1');

/**
 * Per OR group, the tsquery text that matches (exclusions and phrases included) and the one that
 * ranks: the group's required words joined by `|`. ts_rank of an AND query rewards words standing
 * close together and counts excluded words that occur elsewhere in the text; ranked on the
 * required words alone it counts hits per word, as bm25 does on SQLite.
 */
function groupTexts(query: SearchQuery): { matching: string[]; ranking: string[] } {
  const matching: string[] = [];
  const ranking: string[] = [];
  for (const group of query.groups) {
    const tsquery = toTsquery({ groups: [group] });
    if (!tsquery) continue;
    matching.push(tsquery.text);
    ranking.push(tsquery.words.join(' | '));
  }
  return { matching, ranking };
}

export const postgresSearchIndex: SearchIndex = {
  async search(db, kind, communityId, query, window): Promise<SearchHits> {
    const { matching, ranking } = groupTexts(query);
    if (matching.length === 0) return { ids: [], total: 0 };
    const table = sql.table(tables[kind]);
    // Each group is normalized apart, and one that keeps no required lexeme (its words all folded to
    // nothing) is dropped, as the parser drops a group of exclusions only: alone, `!word` would match
    // every document without the word. Kept groups are joined again as normalized tsquery text.
    const withQuery = sql`with query as (
      select string_agg('(' || q.matching::text || ')', ' | ')::tsquery as matching,
             (string_agg('(' || q.ranking::text || ')', ' | ') filter (where numnode(q.ranking) > 0))::tsquery as ranking
      from unnest(${matching}::text[], ${ranking}::text[]) as g(matching, ranking),
           lateral (select to_tsquery('hearth_search', g.matching) as matching, to_tsquery('hearth_search', g.ranking) as ranking) as q
      where querytree(q.matching) not in ('', 'T')
    )`;
    const matches = sql`s.community_id = ${communityId} and s.document @@ (select matching from query)`;

    // Both walk every match (ranking must); run side by side they take the time of the slower.
    const [page, counted] = await Promise.all([
      sql<{ id: string }>`${withQuery}
        select s.id from ${table} s where ${matches}
        order by ts_rank(${WEIGHTS}, s.document, (select ranking from query), ${LENGTH_NORMALIZATION}) desc, s.created_at desc, s.id desc
        limit ${window.limit} offset ${window.offset}`.execute(db),
      sql<{ total: number }>`${withQuery} select count(*) as total from ${table} s where ${matches}`.execute(db),
    ]);
    return { ids: page.rows.map((row) => row.id), total: Number(counted.rows[0]?.total ?? 0) };
  },
};
