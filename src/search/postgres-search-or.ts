// `a OR b` of two frequent words on PostgreSQL, ranked exactly from each word's kept ranks (migration 032) and the
// posts that hold both, without ranking the union.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { singleWord, type RanksAnswer } from './postgres-search-ranks.js';
import type { SearchWindow } from './search-index.js';
import type { SearchQuery } from './search-query.js';

/** The two words of a query that is `a OR b`, each one plain word, the two different; null otherwise. */
export function twoWords(query: SearchQuery): [string, string] | null {
  if (query.groups.length !== 2) return null;
  const [a, b] = query.groups.map((group) => singleWord({ groups: [group] }));
  return a && b && a !== b ? [a, b] : null;
}

/**
 * The count and window of `a OR b` when both words' lexemes have kept ranks, or null when either has none (or the
 * query is not their two lexemes' OR). ts_rank of the OR (normalization 1) sums each present lexeme's part, halves
 * it (two query lexemes) and divides by the length's logarithm; for a post holding only `a` that is, operation for
 * operation, its one-word score halved, exact in floating point (a power of two). So the OR's order is: the posts
 * holding both, ranked by ts_rank itself, merged with each word's kept posts that lack the other, at half their kept
 * score. A word's best k lacking the other are proven when k are found among its kept rows (every post it does not
 * keep scores below its floor), or when it keeps every post; otherwise the answer is null (rank every match).
 */
export async function orWindow(
  db: Kysely<Database>,
  withQuery: RawBuilder<unknown>,
  communityId: string,
  words: readonly [string, string],
  window: SearchWindow,
): Promise<RanksAnswer | null> {
  const n = window.offset + window.limit;
  const lexeme = (word: string) => sql`(
    select l from unnest(tsvector_to_array(to_tsvector('hearth_search', ${word}))) as l
    where hearth_lexeme_query(l) = to_tsquery('hearth_search', ${word}))`;
  const { rows } = await sql<{
    part: string;
    id: string | null;
    docs: number;
    floor: number;
    both: number;
  }>`${withQuery},
    terms as (
      select l.lexeme, l.docs, l.floor, t.side, hearth_lexeme_query(l.lexeme) as q from post_search_lexemes l
      join (values (1, ${lexeme(words[0])}), (2, ${lexeme(words[1])})) as t(side, lexeme) on t.lexeme = l.lexeme
      where l.community_id = ${communityId}
    ),
    checked as (
      select * from terms where (select count(distinct lexeme) from terms) = 2
        and (select matching from query) = (select q from terms where side = 1) || (select q from terms where side = 2)
        and (select ranking from query) = (select matching from query)
    ),
    alone as (
      select c.side, o.id, o.created_at, o.score from checked c
      cross join lateral (
        select r.id, r.created_at, r.score / 2::real as score from post_search_ranks r
        join post_search s on s.community_id = r.community_id and s.id = r.id
        where r.community_id = ${communityId} and r.lexeme = c.lexeme
          and not s.document @@ (select q from checked where side <> c.side)
        order by r.score desc, r.created_at desc, r.id desc limit ${n}
      ) o
    ),
    both_words as (
      select s.id, s.created_at, ts_rank('{0, 0, 0.1, 1}'::real[], s.document, (select ranking from query), 1) as score
      from post_search s
      where exists (select 1 from checked) and s.community_id = ${communityId}
        and s.document @@ ((select q from checked where side = 1) && (select q from checked where side = 2))
    ),
    page as (
      select id from (select id, created_at, score from alone union all
        (select id, created_at, score from both_words order by score desc, created_at desc, id desc limit ${n})) m
      order by score desc, created_at desc, id desc limit ${window.limit} offset ${window.offset}
    )
    select 'side' || c.side as part, (select count(*) from alone a where a.side = c.side)::text as id, c.docs, c.floor,
      (select count(*) from both_words)::int as both
    from checked c
    union all select 'page', id, 0, 0, 0 from page`.execute(db);
  const sides = rows.filter((row) => row.part !== 'page');
  if (sides.length !== 2) return null;
  const both = Number(sides[0]?.both ?? 0);
  const total = sides.reduce((sum, side) => sum + Number(side.docs), 0) - both;
  if (window.offset >= total) return { total, ids: [] };
  // Each word's posts lacking the other: proven to the window's end when it found n of them or keeps every post.
  const proven = sides.every((side) => Number(side.id) >= n || Number(side.floor) === 0);
  const ids = rows.filter((row) => row.part === 'page').map((row) => row.id ?? '');
  return { total, ids: proven ? ids : null };
}
