// A one-word post search ranked from impact postings (migration 022): its exact count, and its top k in exact bm25 order
// proven by reading each (weighted hits) group shortest first, without scoring every match.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { TIE_SLACK, type Scored } from './ranked-window.js';
import { averageLength, fts5Varints } from './sqlite-fts5-records.js';

/** FTS5's bm25 constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;

/**
 * FTS5's bm25 of one phrase without its IDF, in the same operations as fts5_aux.c so that equal inputs give equal
 * scores: a one-word query's score is this times the word's IDF, a factor shared by every match, so the order is
 * the same. Higher for more weighted hits, lower for longer posts.
 */
const impact = (freq: number, length: number, avgdl: number): number =>
  (freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl));

/** The average length FTS5's bm25 uses, read as fts5_aux.c reads it. */
async function currentAverageLength(db: Kysely<Database>): Promise<number | null> {
  const { rows } = await sql<{ block: Uint8Array }>`select block from post_search_data where id = 1`.execute(db);
  const block = rows[0]?.block;
  return block ? averageLength(block) : null;
}

/**
 * How many posts of the whole table hold `term`, as bm25's IDF counts them. When the table holds one community's posts
 * alone, that is the impact word's count (kept by migration 022's triggers); otherwise a walk of the word's doclist.
 */
async function tableHits(db: Kysely<Database>, number: number, term: string): Promise<number> {
  const { rows } = await sql<{ docs: number }>`
    select docs from post_search_terms
    where community = ${number} and term = ${term} and (select count(*) from search_communities) = 1`.execute(db);
  const docs = rows[0]?.docs;
  if (docs !== undefined) return Number(docs);
  const found = await sql<{ doc: number }>`select doc from post_search_vocab where term = ${term}`.execute(db);
  return Number(found.rows[0]?.doc ?? 0);
}

/**
 * The IDF FTS5's bm25 gives impact word `term` of community `number` (fts5_aux.c: log((rows - hits + 0.5) / (hits +
 * 0.5)), at least 1e-6), over the whole table as bm25 counts it. The logarithm is SQLite's `ln`, the C library's
 * `log` that bm25 calls, so the value is the same to the last bit; null when the table is empty.
 */
export async function termIdf(db: Kysely<Database>, number: number, term: string): Promise<number | null> {
  const { rows } = await sql<{ block: Uint8Array }>`select block from post_search_data where id = 1`.execute(db);
  const block = rows[0]?.block;
  const [count = 0] = block ? fts5Varints(block) : [];
  if (count === 0) return null;
  const hits = await tableHits(db, number, term);
  const { rows: logs } = await sql<{ idf: number }>`
    select ln((${count - hits} + 0.5) / (${hits} + 0.5)) as idf`.execute(db);
  const idf = logs[0]?.idf ?? 0;
  return idf <= 0 ? 1e-6 : idf;
}

interface Posting {
  readonly length: number;
  readonly docid: number;
}

/** One (word, weighted hits) group read shortest first, in batches. */
interface Group {
  readonly freq: number;
  /** Every post of the group this short or shorter is stored; null: all are. */
  readonly bound: number | null;
  /** The length of its shortest stored post; null when it stores none. */
  readonly shortest: number | null;
  rows: Posting[];
  at: number;
  /** The stored rows are all read. */
  drained: boolean;
}

export interface ImpactRanking {
  readonly total: number;
  /** The best matches by score (lower first, as bm25), every match tied with the `n`th included. */
  readonly ranked: Scored[];
}

/**
 * The exact count and the `n` best matches of `term` in community `number`, or null when the word has no impact
 * postings there or they cannot prove the order that far (a cut group could hold a post as good as the `n`th).
 */
export async function impactRanking(
  db: Kysely<Database>,
  number: number,
  term: string,
  n: number,
): Promise<ImpactRanking | null> {
  const counted = await sql<{ docs: number }>`
    select docs from post_search_terms where community = ${number} and term = ${term}`.execute(db);
  const total = counted.rows[0]?.docs;
  if (total === undefined) return null;
  if (n <= 0 || total === 0) return { total, ranked: [] };
  const avgdl = await currentAverageLength(db);
  if (avgdl === null) return null;
  // Each group's shortest post (its best score); rows are read only from the groups the window reaches.
  const heads = await sql<{ freq: number; shortest: number | null; bound: number | null }>`
    select freq, min(length) as shortest, null as bound from post_search_impacts
    where community = ${number} and term = ${term} group by freq
    union all
    select freq, null as shortest, length as bound from post_search_impact_bounds
    where community = ${number} and term = ${term}`.execute(db);
  const groups = new Map<number, Group>();
  for (const head of heads.rows) {
    const group = groups.get(head.freq) ?? {
      freq: head.freq,
      bound: null,
      shortest: null,
      rows: [],
      at: 0,
      drained: false,
    };
    groups.set(head.freq, {
      ...group,
      bound: head.bound ?? group.bound,
      shortest: head.shortest ?? group.shortest,
      drained: (head.shortest ?? group.shortest) === null,
    });
  }
  const batch = n + TIE_SLACK;
  const fill = async (group: Group): Promise<void> => {
    const last = group.rows[group.rows.length - 1];
    const { rows } = await sql<Posting>`
      select length, docid from post_search_impacts
      where community = ${number} and term = ${term} and freq = ${group.freq}
        and (length, docid) > (${last?.length ?? -1}, ${last?.docid ?? -1})
      order by length, docid limit ${batch}`.execute(db);
    group.rows = rows;
    group.at = 0;
    group.drained = rows.length < batch;
  };

  /** The best score the group can still give, and whether it is a stored post (or only a cut group's bound). */
  const next = (group: Group): { score: number; stored: boolean } | null => {
    const length = group.rows[group.at]?.length ?? (group.rows.length === 0 && !group.drained ? group.shortest : null);
    if (length !== null && length !== undefined) return { score: impact(group.freq, length, avgdl), stored: true };
    if (group.bound === null) return null;
    return { score: impact(group.freq, group.bound + 1, avgdl), stored: false };
  };
  const ranked: Scored[] = [];
  let nth = Number.NaN;
  for (;;) {
    let best: Group | null = null;
    let bestNext: { score: number; stored: boolean } | null = null;
    for (const group of groups.values()) {
      const candidate = next(group);
      if (candidate && (bestNext === null || candidate.score > bestNext.score)) {
        best = group;
        bestNext = candidate;
      }
    }
    if (best === null || bestNext === null) break;
    if (ranked.length >= n && bestNext.score < nth) break;
    // A cut group's unstored posts could rank here: the postings cannot prove this window.
    if (!bestNext.stored) return null;
    if (best.rows.length === 0) await fill(best);
    const row = best.rows[best.at];
    if (!row) return null;
    ranked.push({ docid: row.docid, score: -bestNext.score });
    if (ranked.length === n) nth = bestNext.score;
    best.at += 1;
    if (best.at >= best.rows.length && !best.drained) await fill(best);
  }
  return { total, ranked };
}
