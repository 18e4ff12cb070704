// Search on PostgreSQL: tsquery over the (community_id, document) GIN index, ranked by ts_rank (title A 1.0, body B 0.1); a
// frequent word (or an OR of two) from their impact postings (postgres-search-ranks.ts, postgres-search-or.ts), other
// large answers ranked on a budget.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import type { SearchBudget } from './search-budget.js';
import type { SearchHits, SearchIndex, SearchKind, SearchWindow } from './search-index.js';
import { toTsquery } from './postgres-search-query.js';
import { orWindow, twoWords } from './postgres-search-or.js';
import { ranksWindow, singleWord, type RanksAnswer } from './postgres-search-ranks.js';
import type { SearchQuery } from './search-query.js';

/**
 * The title's lexemes of a post's search document (its weight-A part): the expression of the index migration 005
 * made, which a query must spell alike for PostgreSQL to use that index.
 */
const titleLexemes = (document: string): string => `ts_filter(${document}, '{a}'::"char"[])`;

const tables: Record<SearchKind, { table: string; titled: boolean }> = {
  post: { table: 'post_search', titled: true },
  comment: { table: 'comment_search', titled: false },
};

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
export function groupTexts(query: SearchQuery): { matching: string[]; ranking: string[] } {
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

/** One search's SQL: the query CTE and the condition of a match. */
interface Plan {
  readonly withQuery: RawBuilder<unknown>;
  /** A match likeliest to rank first: a required word in the title, or (OR queries) every alternative matched. */
  readonly candidate: RawBuilder<unknown>;
  readonly table: RawBuilder<unknown>;
  readonly matches: RawBuilder<unknown>;
  readonly rank: RawBuilder<unknown>;
}

function planOf(kind: SearchKind, communityId: string, query: SearchQuery): Plan | null {
  const { matching, ranking } = groupTexts(query);
  if (matching.length === 0) return null;
  // Each group is normalized apart, and one that keeps no required lexeme (its words all folded to
  // nothing) is dropped, as the parser drops a group of exclusions only: alone, `!word` would match
  // every document without the word. Kept groups are joined again as normalized tsquery text.
  // `every` is all groups at once (candidates beyond the budget).
  const withQuery = sql`with query as (
    select string_agg('(' || q.matching::text || ')', ' | ')::tsquery as matching,
           (string_agg('(' || q.ranking::text || ')', ' | ') filter (where numnode(q.ranking) > 0))::tsquery as ranking,
           string_agg('(' || q.matching::text || ')', ' & ')::tsquery as every
    from unnest(${matching}::text[], ${ranking}::text[]) as g(matching, ranking),
         lateral (select to_tsquery('hearth_search', g.matching) as matching, to_tsquery('hearth_search', g.ranking) as ranking) as q
    where querytree(q.matching) not in ('', 'T')
  )`;
  // A plain condition per case: an OR with a flag would keep PostgreSQL from using the title index.
  const titled = sql`${sql.raw(titleLexemes('s.document'))} @@ (select ranking from query)`;
  return {
    withQuery,
    candidate: matching.length > 1 ? sql`(${titled} or s.document @@ (select every from query))` : titled,
    table: sql.table(tables[kind].table),
    matches: sql`s.community_id = ${communityId} and s.document @@ (select matching from query)`,
    rank: sql`ts_rank(${WEIGHTS}, s.document, (select ranking from query), ${LENGTH_NORMALIZATION})`,
  };
}

async function countMatches(db: Kysely<Database>, plan: Plan): Promise<number> {
  const { rows } = await sql<{
    total: number;
  }>`${plan.withQuery} select count(*) as total from ${plan.table} s where ${plan.matches}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** The window of every match in full order, without the candidates of `except`: ts_rank needs no corpus statistics, so it is exact. */
async function exactWindow(
  db: Kysely<Database>,
  plan: Plan,
  window: SearchWindow,
  except: RawBuilder<unknown> | null = null,
): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${plan.withQuery}${except ? sql`, candidates as (${except})` : sql``}
    select s.id from ${plan.table} s where ${plan.matches} ${except ? sql`and s.id not in (select id from candidates)` : sql``}
    order by ${plan.rank} desc, s.created_at desc, s.id desc
    limit ${window.limit} offset ${window.offset}`.execute(db);
  return rows.map((row) => row.id);
}

/**
 * The best `count` matches with a required word in the title (the title index of migration 004 finds
 * them without reading other matches) or, for `OR` queries, matching every alternative; ranked
 * exactly, as ts_rank needs no corpus statistics.
 */
const candidatesOf = (plan: Plan, count: number): RawBuilder<unknown> => sql`
  select s.id, s.created_at, ${plan.rank} as rank from ${plan.table} s
  where ${plan.matches} and ${plan.candidate}
  order by rank desc, s.created_at desc, s.id desc limit ${count}`;

/** As on SQLite: the candidates first, in exact order, then every other match in exact order. */
async function budgetedWindow(
  db: Kysely<Database>,
  plan: Plan,
  candidates: RawBuilder<unknown>,
  window: SearchWindow,
): Promise<string[]> {
  const { rows } = await sql<{ id: string; candidates: number }>`${plan.withQuery}, candidates as (${candidates})
    select id, count(*) over () as candidates from candidates
    order by rank desc, created_at desc, id desc
    limit ${window.limit} offset ${window.offset}`.execute(db);
  const ids = rows.map((row) => row.id);
  const end = window.offset + window.limit;
  let first = Number(rows[0]?.candidates ?? -1);
  if (first < 0) {
    // The window starts beyond the candidates: how many there are decides where the rest begins.
    const counted = await sql<{
      n: number;
    }>`${plan.withQuery}, candidates as (${candidates}) select count(*) as n from candidates`.execute(db);
    first = Number(counted.rows[0]?.n ?? 0);
  }
  if (end <= first) return ids;
  const offset = Math.max(0, window.offset - first);
  return [...ids, ...(await exactWindow(db, plan, { offset, limit: end - first - offset }, candidates))];
}

/**
 * The exact window when the query has at most `budget` matches: only the first `budget + 1` matches are
 * read and ranked (all of them when they fit), so that an answer beyond the budget costs no more than that.
 */
async function cappedExactWindow(
  db: Kysely<Database>,
  plan: Plan,
  window: SearchWindow,
  budget: number,
): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`${plan.withQuery}, capped as materialized (
      select s.id, s.created_at, ${plan.rank} as rank from ${plan.table} s where ${plan.matches} limit ${budget + 1})
    select id from capped order by rank desc, created_at desc, id desc
    limit ${window.limit} offset ${window.offset}`.execute(db);
  return rows.map((row) => row.id);
}

async function ranksOfPlan(
  db: Kysely<Database>,
  plan: Plan,
  communityId: string,
  query: SearchQuery,
  window: SearchWindow,
): Promise<RanksAnswer | null> {
  const word = singleWord(query);
  if (word !== null) return ranksWindow(db, plan.withQuery, communityId, word, window);
  const words = twoWords(query);
  return words === null ? null : orWindow(db, plan.withQuery, communityId, words, window);
}

/**
 * A post search's answer from kept ranks: of its one word (postgres-search-ranks.ts), or of both words of `a OR b`
 * (postgres-search-or.ts); null when they have none.
 */
export async function ranksOf(
  db: Kysely<Database>,
  communityId: string,
  query: SearchQuery,
  window: SearchWindow,
): Promise<RanksAnswer | null> {
  const plan = planOf('post', communityId, query);
  return plan === null ? null : ranksOfPlan(db, plan, communityId, query, window);
}

export function createPostgresSearchIndex(budget: SearchBudget): SearchIndex {
  return {
    async search(db, kind, communityId, query, window): Promise<SearchHits> {
      const plan = planOf(kind, communityId, query);
      if (plan === null) return { ids: [], total: 0 };
      if (!tables[kind].titled) {
        // Comments have no title to find candidates by: every match is ranked, beside the count as before.
        const [total, ids] = await Promise.all([countMatches(db, plan), exactWindow(db, plan, window)]);
        return { ids, total };
      }
      const ranks = await ranksOfPlan(db, plan, communityId, query, window);
      // A frequent word, or an OR of two: the page from the kept ranks, or (a page deeper than they prove) every
      // match ranked, so that the query's pages follow one exact order at every depth.
      if (ranks) return { ids: ranks.ids ?? (await exactWindow(db, plan, window)), total: ranks.total };
      // Side by side on two connections (the count reads every match, as ranking them would): the
      // ranking is capped at the budget, and exact whenever the count proves every match was read.
      const [total, capped] = await Promise.all([
        countMatches(db, plan),
        cappedExactWindow(db, plan, window, budget.rankBudget),
      ]);
      if (total <= budget.rankBudget || window.offset >= total)
        return { ids: total <= budget.rankBudget ? capped : [], total };
      return { ids: await budgetedWindow(db, plan, candidatesOf(plan, budget.titleCandidates), window), total };
    },
  };
}
