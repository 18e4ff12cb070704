// A post search of required words and phrases with few matches, frequent words among them ("team lantern"): every
// match read and scored as bm25 scores it, from its texts, without bm25's walk of each frequent word's whole doclist.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Scored } from './ranked-window.js';
import { ordered, type SearchQuery } from './search-query.js';
import { bm25Idf, currentAverageLength, impact, tableHits } from './sqlite-search-impacts.js';
import { toFts5Match } from './sqlite-search-query.js';
import {
  indexedLengths,
  indexedTexts,
  tableCount,
  within,
  type Range,
  type Scope,
} from './sqlite-search-statements.js';
import { fts5Tokens, phraseHits } from './sqlite-search-words.js';

/** When a search reads its matches: fewer than its frequent words' posts over `postsPerMatch`, at most `mostRead`. */
export interface FewShape {
  readonly postsPerMatch: number;
  readonly mostRead: number;
}

/**
 * bm25 over FTS5 walks each query word's whole doclist once for its IDF: about 0.056 µs per post holding it (12 ms
 * for a word in 214,000 posts at a million). Reading and counting a match from its texts costs 14 µs when its pages
 * are in memory and 50–90 µs when they are read from disk; at 1M posts this shape saved a third of the time of the
 * word searches it answered (bench/search-tail.ts; the note of issue 40).
 */
export const defaultFewShape: FewShape = { postsPerMatch: 1000, mostRead: 300 };

/** The FTS5 tokens of each required clause of a one-group query without exclusions, in bm25's phrase order. */
function clausesOf(query: SearchQuery): string[][] | null {
  const [group, ...others] = query.groups;
  if (!group || others.length > 0) return null;
  const { positive, negative } = ordered(group);
  if (negative.length > 0 || positive.length === 0) return null;
  const clauses = positive.map((clause) => [...fts5Tokens(clause.words.join(' '))]);
  return clauses.every((tokens) => tokens.length > 0) ? clauses : null;
}

export interface FewRanking {
  readonly total: number;
  /** Every match, best first (lower bm25). */
  readonly ranked: Scored[];
}

/**
 * The exact count and every match ranked by bm25, or null for another query, or when it has more matches than
 * reading them saves (`shape`).
 *
 * bm25 (fts5_aux.c) is -Σ idf(phrase) × impact(weighted hits, length) over the query's phrases in order: the hits are
 * counted from the texts by FTS5's own tokenizer, the lengths read from FTS5's docsize rows, each IDF from the table's
 * count of the phrase, in the same operations, so the scores are FTS5's to the last bit.
 */
export async function fewMatchesRanking(
  db: Kysely<Database>,
  scope: Scope,
  range: Range,
  query: SearchQuery,
  shape: FewShape = defaultFewShape,
): Promise<FewRanking | null> {
  const clauses = clausesOf(query);
  const match = toFts5Match(query);
  if (clauses === null || match === null) return null;
  const words = [...new Set(clauses.filter((tokens) => tokens.length === 1).flat())];
  const counted = await sql<{ docs: number }>`
    select coalesce(sum(docs), 0) as docs from post_search_terms
    where community = ${range.number} and term in (select value from json_each(${JSON.stringify(words)}))`.execute(db);
  const most = Math.min(shape.mostRead, Math.floor(Number(counted.rows[0]?.docs ?? 0) / shape.postsPerMatch));
  if (most < 1) return null;
  const { rows } = await sql<{ docid: number }>`
    select ${scope.fts}.rowid as docid from ${scope.fts}
    where ${scope.fts} match ${match} and ${within(scope, range)} limit ${most + 1}`.execute(db);
  if (rows.length > most) return null;
  const total = rows.length;
  const avgdl = await currentAverageLength(db);
  if (total === 0 || avgdl === null) return { total, ranked: [] };
  const idfs: number[] = [];
  for (const tokens of clauses) {
    const [word] = tokens;
    const hits =
      tokens.length === 1 && word !== undefined
        ? await tableHits(db, range.number, word)
        : await tableCount(db, scope, toFts5Match({ groups: [[{ words: tokens, negated: false }]] }) ?? '');
    const idf = await bm25Idf(db, hits);
    if (idf === null) return null;
    idfs.push(idf);
  }
  const docids = rows.map((row) => row.docid);
  const hits = phraseHits(await indexedTexts(db, docids), clauses);
  const lengths = await indexedLengths(db, docids);
  const ranked: Scored[] = [];
  for (const docid of docids) {
    const freqs = hits.get(docid);
    const length = lengths.get(docid);
    // A post changed or gone since it matched (a write meanwhile) is left out, as a page read by id leaves it out.
    if (freqs === undefined || length === undefined) continue;
    let score = 0;
    idfs.forEach((idf, i) => {
      score += idf * impact(freqs[i] ?? 0, length, avgdl);
    });
    ranked.push({ docid, score: -score });
  }
  ranked.sort((a, b) => a.score - b.score);
  return { total, ranked };
}
