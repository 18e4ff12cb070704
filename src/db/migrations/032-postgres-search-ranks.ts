// PostgreSQL's impact postings for frequent words (issue 40): each word's exact number of posts per community, and its
// best posts by the word's own ts_rank, kept by a trigger on post_search in the writer's transaction.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/** The score of search (postgres-search-index.ts) for a one-word query: weights {D, C, B, A}, normalization 1. */
const score = (document: string, lexeme: string) =>
  `ts_rank('{0, 0, 0.1, 1}'::real[], ${document}, hearth_lexeme_query(${lexeme}), 1)`;

/** What the build of migration time keeps: words of at least 1,000 posts, their best 100 (search-ranks-build.ts). */
const MIN_DOCS = 1000;
const DEPTH = 100;

const statements = [
  // One lexeme as a tsquery, quoted as tsquery input reads it (no stemming: the lexeme is already one).
  `create function hearth_lexeme_query(lexeme text) returns tsquery language sql immutable strict parallel safe as $$
    select ('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery
  $$`,
  // A community's frequent lexemes: how many of its posts hold each, and the floor of the scores kept: every post
  // whose score for the lexeme is at least `floor` has a row in post_search_ranks (0: every post does).
  `create table post_search_lexemes (
    community_id text not null,
    lexeme text not null,
    docs integer not null,
    floor real not null,
    primary key (community_id, lexeme)
  )`,
  // Per frequent lexeme, its posts of score at least the floor, in search's order when the key is read backwards.
  `create table post_search_ranks (
    community_id text not null,
    lexeme text not null,
    score real not null,
    created_at timestamptz not null,
    id text not null,
    primary key (community_id, lexeme, score, created_at, id)
  )`,
  // Kept from post_search's own rows (written by migration 002's triggers, or by an import's load): a post leaves the
  // counts and rows of its old document's lexemes and joins its new document's. Skipped while an import defers
  // search (migration 007); the import then builds the community's rows itself.
  `create function hearth_post_search_ranks() returns trigger language plpgsql as $$
    begin
      if current_setting('hearth.defer_search', true) = 'on' then
        return null;
      end if;
      if tg_op = 'UPDATE' and old.community_id = new.community_id and old.id = new.id
        and old.created_at = new.created_at and old.document = new.document then
        return null;
      end if;
      if tg_op <> 'INSERT' and exists (select 1 from post_search_lexemes where community_id = old.community_id) then
        with gone as (
          update post_search_lexemes l set docs = l.docs - 1
          where l.community_id = old.community_id and l.lexeme = any(tsvector_to_array(old.document))
          returning l.lexeme
        )
        delete from post_search_ranks r using gone
        where r.community_id = old.community_id and r.lexeme = gone.lexeme
          and r.score = ${score('old.document', 'gone.lexeme')} and r.created_at = old.created_at and r.id = old.id;
      end if;
      if tg_op <> 'DELETE' and exists (select 1 from post_search_lexemes where community_id = new.community_id) then
        with held as (
          update post_search_lexemes l set docs = l.docs + 1
          where l.community_id = new.community_id and l.lexeme = any(tsvector_to_array(new.document))
          returning l.lexeme, l.floor
        )
        insert into post_search_ranks (community_id, lexeme, score, created_at, id)
          select new.community_id, s.lexeme, s.score, new.created_at, new.id
          from (select held.lexeme, held.floor, ${score('new.document', 'held.lexeme')} as score from held) s
          where s.score >= s.floor;
      end if;
      return null;
    end $$`,
  `create trigger post_search_ranks_change after insert or update or delete on post_search
    for each row execute function hearth_post_search_ranks()`,
  // Replaces one community's rows: every lexeme held by at least min_docs of its posts, counted, and its best depth
  // posts (with any tied with the last) kept; the floor is the last kept score when some posts are left out. The
  // space migration 002 puts between title and body is in every document and no query's: it is left out.
  // Only the likely best are scored: every title hit (ts_filter), then the body-only hits that could beat the lexeme's
  // depth-th title hit. A body-only hit's score before normalization is below 0.1 (its weight, the sum of its
  // occurrences' weights over j^2 divided by pi^2/6), and normalization 1 divides it by log2(1 + positions), at least
  // log2(1 + lexemes): a hit whose bound is below that title score is left out unscored (0.999: a margin for the
  // bound's rounding), and cannot rank among the kept.
  `create function hearth_post_search_ranks_build(community text, min_docs integer, depth integer)
  returns void language plpgsql as $$
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
      insert into post_search_ranks (community_id, lexeme, score, created_at, id)
        with frequent as materialized (
          select lexeme, hearth_lexeme_query(lexeme) as q from post_search_lexemes where community_id = community
        ),
        titled as materialized (
          select f.lexeme, s.id, s.created_at, ts_rank('{0, 0, 0.1, 1}'::real[], s.document, f.q, 1) as score
          from post_search s
          cross join lateral unnest(tsvector_to_array(ts_filter(s.document, '{a}'))) as t(lexeme)
          join frequent f on f.lexeme = t.lexeme
          where s.community_id = community
        ),
        cut as (
          select f.lexeme, f.q, coalesce(c.score, 0) as least from frequent f left join (
            select p.lexeme, p.score from (
              select lexeme, score, row_number() over (partition by lexeme collate "C" order by score desc) as place
              from titled) p
            where p.place = depth
          ) c on c.lexeme = f.lexeme
        ),
        body as (
          select c.lexeme, s.id, s.created_at, ts_rank('{0, 0, 0.1, 1}'::real[], s.document, c.q, 1) as score
          from post_search s
          cross join lateral unnest(s.document) as d(lexeme, positions, weights)
          join cut c on c.lexeme = d.lexeme
          where s.community_id = community and not ('A' = any(d.weights))
            and 0.1 / (ln(length(s.document) + 1) / ln(2)) >= c.least * 0.999
        ),
        candidates as (select * from titled union all select * from body)
        select community, r.lexeme, r.score, r.created_at, r.id from (
          select *, rank() over (partition by lexeme collate "C" order by score desc) as place from candidates
        ) r where r.place <= depth;
      update post_search_lexemes l set floor = kept.floor
        from (select lexeme, min(score) as floor, count(*) as rows from post_search_ranks
              where community_id = community group by lexeme) kept
        where l.community_id = community and l.lexeme = kept.lexeme and kept.rows < l.docs;
    end $$`,
];

export function postgresSearchRanksMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite has its own (migration 022).
      if (store !== 'postgres') return;
      for (const statement of statements) await sql.raw(statement).execute(db);
      // Posts stored before: every community's rows built now.
      const { rows } = await sql<{ community_id: string }>`select distinct community_id from post_search`.execute(db);
      for (const row of rows)
        await sql`select hearth_post_search_ranks_build(${row.community_id}, ${MIN_DOCS}, ${DEPTH})`.execute(db);
    },
  };
}
