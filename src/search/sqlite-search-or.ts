// A post search of two alternatives (`a OR b`, each one word or phrase) ranked exactly without scoring every match: its
// best n lie among the best n matching both, and the best n of each alternative alone.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Scored } from './ranked-window.js';
import type { Clause, SearchQuery } from './search-query.js';
import { impactRanking, termIdf } from './sqlite-search-impacts.js';
import { toFts5Match } from './sqlite-search-query.js';
import { bestRanked, countMatches, type Range, type Scope } from './sqlite-search-statements.js';
import { fts5Tokens, singleTerm } from './sqlite-search-words.js';

/** The same phrase as FTS5 indexes it (`teams` and `team` are one stem). */
function sameClause(a: Clause, b: Clause): boolean {
  if (a.negated !== b.negated) return false;
  const left = fts5Tokens(a.words.join(' '));
  const right = fts5Tokens(b.words.join(' '));
  return left.length === right.length && left.every((token, i) => right[i] === token);
}

/**
 * `teams OR team` as `teams`: the same stem twice, which bm25 counts twice, an exact doubling of every score, so the
 * order, the ties and the matches are the same. (The parser already drops a group written the same twice, `a OR a`;
 * only a pair of one-clause groups: longer repeats round differently.)
 */
export function withoutRepeat(query: SearchQuery): SearchQuery {
  const [first, second, ...rest] = query.groups;
  const [a, ...more] = first ?? [];
  const [b, ...others] = second ?? [];
  if (!a || !b || rest.length > 0 || more.length > 0 || others.length > 0 || !sameClause(a, b)) return query;
  return { groups: [[a]] };
}

/** The two required clauses of `a OR b` with nothing else; null for any other query. */
function alternativesOf(query: SearchQuery): [Clause, Clause] | null {
  const [first, second, ...rest] = query.groups;
  const [a, ...more] = first ?? [];
  const [b, ...others] = second ?? [];
  if (!a || !b || a.negated || b.negated || rest.length > 0 || more.length > 0 || others.length > 0) return null;
  return [a, b];
}

interface Ranking {
  readonly total: number;
  /**
   * Best first (lower bm25): every match tied with the `n`th included, or, where that run of ties is longer than
   * rankedThrough's first read, the first `n` in search's full order (score, newer, id).
   */
  readonly ranked: Scored[];
}

/**
 * One alternative's count and its `n` best matches, scored as `a OR b`'s bm25 scores a post holding this alternative
 * only (the other phrase adds idf × 0): a frequent word's from its impact postings times its IDF, any other's by
 * FTS5's bm25 of the alternative alone, which computes the same sum; null when that would score more than `budget`
 * matches (the postings cannot prove this deep, or the word has none).
 */
async function alone(
  db: Kysely<Database>,
  scope: Scope,
  range: Range,
  clause: Clause,
  n: number,
  budget: number,
): Promise<Ranking | null> {
  const query = { groups: [[clause]] };
  const term = singleTerm(query);
  const impacts = term === null ? null : await impactRanking(db, range.number, term, n);
  if (term !== null && impacts) {
    const idf = await termIdf(db, range.number, term);
    // bm25 is -(idf × impact); impactRanking's score is -impact.
    return idf === null
      ? null
      : { total: impacts.total, ranked: impacts.ranked.map((row) => ({ ...row, score: idf * row.score })) };
  }
  const match = toFts5Match(query);
  if (match === null) return null;
  const total = await countMatches(db, scope, match, range);
  if (total > budget) return null;
  return { total, ranked: await bestRanked(db, scope, range, match, n) };
}

/**
 * The exact count and `n` best matches of `a OR b`; null for another query, or when an alternative without postings
 * that prove this deep has more than `budget` matches (FTS5 would score them all).
 *
 * A post matching both scores the same in `a AND b` (the same phrases in the same order), so the best n of those are
 * ranked by FTS5 over the intersection alone. A post matching `a` only scores its `a` part, so one outside a's best n
 * is beaten by those n (each scores at least its `a` part). A post of a's best n that also matches `b` but is not
 * among the intersection's best n is kept with its `a` part only, which ranks it below the intersection's nth: it
 * never reaches the first n. Each "best n" may be cut inside a run of equal scores by search's full order (score, then
 * newer, then id) instead of scored to the run's end: the argument holds in that order too, as every part of a score
 * is at most zero and the dates and ids that break ties are the same in each ranking.
 */
export async function orRanking(
  db: Kysely<Database>,
  scope: Scope,
  range: Range,
  query: SearchQuery,
  n: number,
  budget: number,
): Promise<Ranking | null> {
  const pair = alternativesOf(query);
  if (pair === null || n <= 0) return null;
  const [a, b] = pair;
  const both = toFts5Match({ groups: [[a, b]] });
  if (both === null) return null;
  const onlyA = await alone(db, scope, range, a, n, budget);
  const onlyB = onlyA && (await alone(db, scope, range, b, n, budget));
  if (!onlyA || !onlyB) return null;
  // The intersection is ranked whatever its size: it is at most either alternative, and today's path beyond the budget
  // would rank the union's title candidates.
  const inBoth = await countMatches(db, scope, both, range);
  const bestOfBoth = inBoth === 0 ? [] : await bestRanked(db, scope, range, both, n);
  const best = new Map<number, number>();
  for (const row of [...onlyA.ranked, ...onlyB.ranked])
    best.set(row.docid, Math.min(row.score, best.get(row.docid) ?? row.score));
  // The intersection's exact scores replace an alternative's part.
  for (const row of bestOfBoth) best.set(row.docid, row.score);
  const ranked = [...best].map(([docid, score]) => ({ docid, score })).sort((x, y) => x.score - y.score);
  return { total: onlyA.total + onlyB.total - inBoth, ranked };
}
