// PostgreSQL: the build of a community's kept ranks (migration 032) made again, same rows in a third of the time:
// the title hits scored on every core and ranked in one sort, the body-only hits bounded before they are unnested.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/** The score of search (postgres-search-index.ts) for a one-word query: weights {D, C, B, A}, normalization 1. */
const score = (document: string, query: string) => `ts_rank('{0, 0, 0.1, 1}'::real[], ${document}, ${query}, 1)`;

/**
 * The same rows as migration 032's function (every lexeme held by at least min_docs posts, counted; its best depth
 * posts and any tied with the last; the floor), found another way (measured at 1M posts: bench/analysis.md,
 * 'Figures behind the code's choices'):
 * - Every title hit of a frequent lexeme is scored by CREATE TABLE AS, which may run its query in parallel workers
 *   (INSERT … SELECT may not), and ranked per lexeme in that one sort: only the best depth and their ties are kept.
 *   A post that is not among them has depth title hits above it and cannot be kept at the end either.
 * - Each lexeme's depth-th title score is the least of its kept scores (when it has depth of them), read from those
 *   rows in one pass rather than by a second ranking of every title hit.
 * - A body-only hit is scored only when its bound beats the lexeme's depth-th title score (as before); a post whose
 *   bound beats no lexeme's is passed over before its document is unnested.
 * - The sorts stay in memory (work_mem, for the function's run only); JIT compilation, longer than the statements
 *   it would speed up here, is off.
 */
const build = `create or replace function hearth_post_search_ranks_build(community text, min_docs integer, depth integer)
  returns void language plpgsql
  set work_mem = '256MB' set jit = off
  as $$
    begin
      delete from post_search_ranks where community_id = community;
      delete from post_search_lexemes where community_id = community;
      if (select count(*) from post_search where community_id = community) < min_docs then
        return;
      end if;
      insert into post_search_lexemes (community_id, lexeme, docs, floor)
        select community, word, ndoc, 0
        from ts_stat(format('select document from post_search where community_id = %L', community))
        where ndoc >= min_docs and word <> ' ';
      create temporary table hearth_ranks_titled as
        select r.lexeme, r.id, r.created_at, r.score from (
          select t.*, rank() over (partition by t.lexeme collate "C" order by t.score desc) as place from (
            select f.lexeme, s.id, s.created_at, ${score('s.document', 'hearth_lexeme_query(f.lexeme)')} as score
            from post_search s
            cross join lateral unnest(tsvector_to_array(ts_filter(s.document, '{a}'))) as h(lexeme)
            join post_search_lexemes f on f.community_id = s.community_id and f.lexeme = h.lexeme
            where s.community_id = community
          ) t
        ) r where r.place <= depth;
      insert into post_search_ranks (community_id, lexeme, score, created_at, id)
        with least as (
          select lexeme, case when count(*) >= depth then min(score) else 0 end as least
          from hearth_ranks_titled group by lexeme
        ),
        cut as materialized (
          select f.lexeme, hearth_lexeme_query(f.lexeme) as q, coalesce(l.least, 0) as least
          from post_search_lexemes f left join least l on l.lexeme = f.lexeme
          where f.community_id = community
        ),
        body as (
          select c.lexeme, s.id, s.created_at, ${score('s.document', 'c.q')} as score
          from post_search s
          cross join lateral unnest(s.document) as d(lexeme, positions, weights)
          join cut c on c.lexeme = d.lexeme
          where s.community_id = community and not ('A' = any(d.weights))
            and 0.1 / (ln(length(s.document) + 1) / ln(2)) >= c.least * 0.999
            and 0.1 / (ln(length(s.document) + 1) / ln(2)) >= (select min(least) from cut) * 0.999
        ),
        candidates as (select lexeme, id, created_at, score from hearth_ranks_titled union all select * from body)
        select community, r.lexeme, r.score, r.created_at, r.id from (
          select *, rank() over (partition by lexeme collate "C" order by score desc) as place from candidates
        ) r where r.place <= depth;
      drop table hearth_ranks_titled;
      update post_search_lexemes l set floor = kept.floor
        from (select lexeme, min(score) as floor, count(*) as rows from post_search_ranks
              where community_id = community group by lexeme) kept
        where l.community_id = community and l.lexeme = kept.lexeme and kept.rows < l.docs;
    end $$`;

export function postgresRanksBuildMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite builds its impact postings in TypeScript (search/sqlite-search-impacts-build.ts).
      if (store !== 'postgres') return;
      await sql.raw(build).execute(db);
    },
  };
}
