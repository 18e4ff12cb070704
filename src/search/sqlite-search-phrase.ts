// A one-phrase post search ("community building") ranked exactly without scoring every match: its rarest word's impact
// postings, best first, bound every post's phrase score; the posts they reach are read and their phrase hits counted.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { TIE_SLACK, type Scored } from './ranked-window.js';
import type { SearchQuery } from './search-query.js';
import { bm25Idf, ImpactWalk, type Posting } from './sqlite-search-impacts.js';
import { toFts5Match } from './sqlite-search-query.js';
import { indexedTexts, tableCount, type Range, type Scope } from './sqlite-search-statements.js';
import { fts5Tokens, phraseHits } from './sqlite-search-words.js';

/**
 * How many of the word's posts one search may read and count before it leaves the phrase to FTS5's ranking: about
 * 14 µs each (texts read and tokenized), so at most about 7 ms, a fifth of ranking a topic's 30,000 matches.
 */
const MOST_READ = 500;

/** The FTS5 tokens of a query of one required phrase of two or more words and nothing else; null otherwise. */
function phraseOf(query: SearchQuery): readonly string[] | null {
  const [group, ...others] = query.groups;
  const [clause, ...more] = group ?? [];
  if (others.length > 0 || more.length > 0 || !clause || clause.negated) return null;
  const tokens = fts5Tokens(clause.words.join(' '));
  return tokens.length >= 2 ? tokens : null;
}

/** How many rows of the whole table bm25 counts as holding the phrase: the community's count when it is the only one. */
async function tableMatches(db: Kysely<Database>, scope: Scope, match: string, total: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from search_communities`.execute(db);
  return Number(rows[0]?.n ?? 0) <= 1 ? total : tableCount(db, scope, match);
}

export interface PhraseRanking {
  readonly total: number;
  /** The best matches by bm25 (lower first), every match tied with the `n`th included. */
  readonly ranked: Scored[];
}

/**
 * The exact count (`count`) and the `n` best matches of a one-phrase query; null for another query, or when its words
 * have no impact postings, or they cannot prove the order within `MOST_READ` posts.
 *
 * bm25 scores a phrase as idf × impact(weighted phrase hits, length). Each hit of the phrase is a hit of each of its
 * words in the same column, so a post's phrase hits are at most its hits of the rarest word, and its phrase impact at
 * most that word's impact in it. Walking that word's postings best first, a post not yet reached cannot beat the
 * walk's next impact: once `n` posts read hold the phrase at least that well, they are the best `n`.
 */
export async function phraseRanking(
  db: Kysely<Database>,
  scope: Scope,
  range: Range,
  query: SearchQuery,
  n: number,
  count: () => Promise<number>,
): Promise<PhraseRanking | null> {
  const tokens = phraseOf(query);
  const match = toFts5Match(query);
  if (tokens === null || match === null) return null;
  const counted = await sql<{ term: string; docs: number }>`
    select term, docs from post_search_terms
    where community = ${range.number} and term in (select value from json_each(${JSON.stringify(tokens)}))
    order by docs limit 1`.execute(db);
  const rarest = counted.rows[0]?.term;
  const docs = Number(counted.rows[0]?.docs ?? 0);
  if (rarest === undefined) return null;
  const total = await count();
  if (n <= 0 || total === 0) return { total, ranked: [] };
  // About one post in docs / total of the word's holds the phrase: reading n of those would pass MOST_READ (a rare
  // phrase of common words), so FTS5 ranks its few matches instead.
  if (n * docs > MOST_READ * total) return null;
  const idf = await bm25Idf(db, await tableMatches(db, scope, match, total));
  const walk = await ImpactWalk.open(db, range.number, rarest, n + TIE_SLACK);
  if (idf === null || walk === null) return null;
  const found: { docid: number; impact: number }[] = [];
  let nth = Number.NaN;
  let read = 0;
  for (;;) {
    const batch: Posting[] = [];
    for (let next = walk.peek(); next !== null && batch.length < n + TIE_SLACK; next = walk.peek()) {
      if (found.length >= n && next.impact < nth) break;
      // A cut group's unstored posts could hold the phrase this well: the postings cannot prove this window.
      if (!next.stored) {
        if (batch.length === 0) return null;
        break;
      }
      const posting = await walk.take();
      if (!posting) return null;
      batch.push(posting);
    }
    if (batch.length === 0) break;
    read += batch.length;
    if (read > MOST_READ) return null;
    const hits = phraseHits(
      await indexedTexts(
        db,
        batch.map((posting) => posting.docid),
      ),
      tokens,
    );
    for (const posting of batch) {
      const freq = hits.get(posting.docid);
      if (freq !== undefined) found.push({ docid: posting.docid, impact: walk.impactOf(freq, posting.length) });
    }
    found.sort((a, b) => b.impact - a.impact);
    nth = found[n - 1]?.impact ?? Number.NaN;
  }
  // bm25 is -(idf × impact), in fts5_aux.c's operations (0 + idf × impact, negated).
  const ranked = found
    .filter((row) => !(row.impact < nth))
    .map((row) => ({ docid: row.docid, score: -(idf * row.impact) }));
  return { total, ranked };
}
