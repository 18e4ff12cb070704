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
 * The IDF FTS5's bm25 gives a phrase held by `hits` rows of the whole table (fts5_aux.c: log((rows - hits + 0.5) /
 * (hits + 0.5)), at least 1e-6). The logarithm is SQLite's `ln`, the C library's `log` that bm25 calls, so the value
 * is the same to the last bit; null when the table is empty.
 */
export async function bm25Idf(db: Kysely<Database>, hits: number): Promise<number | null> {
  const { rows } = await sql<{ block: Uint8Array }>`select block from post_search_data where id = 1`.execute(db);
  const block = rows[0]?.block;
  const [count = 0] = block ? fts5Varints(block) : [];
  if (count === 0) return null;
  const { rows: logs } = await sql<{ idf: number }>`
    select ln((${count - hits} + 0.5) / (${hits} + 0.5)) as idf`.execute(db);
  const idf = logs[0]?.idf ?? 0;
  return idf <= 0 ? 1e-6 : idf;
}

/** The IDF FTS5's bm25 gives impact word `term` of community `number`, over the whole table as bm25 counts it. */
export async function termIdf(db: Kysely<Database>, number: number, term: string): Promise<number | null> {
  return bm25Idf(db, await tableHits(db, number, term));
}

/** One stored posting of a word: its post, its length in words and its impact. */
export interface Posting {
  readonly docid: number;
  readonly length: number;
  readonly impact: number;
}

/** One (word, weighted hits) group read shortest first, in batches. */
interface Group {
  readonly freq: number;
  /** Every post of the group this short or shorter is stored; null: all are. */
  readonly bound: number | null;
  /** The length of its shortest stored post; null when it stores none. */
  readonly shortest: number | null;
  rows: { length: number; docid: number }[];
  at: number;
  /** The stored rows are all read. */
  drained: boolean;
}

/** The best impact a walk can still give, and whether it is a stored post's (or only a cut group's bound). */
export interface WalkBound {
  readonly impact: number;
  readonly stored: boolean;
}

/**
 * A word's impact postings in descending impact (best first), merged from its (weighted hits) groups, each read
 * shortest first in batches of `batch`: `peek()` says the best impact still possible, `take()` reads that posting.
 */
export class ImpactWalk {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly number: number,
    private readonly term: string,
    private readonly avgdl: number,
    private readonly groups: readonly Group[],
    private readonly batch: number,
  ) {}

  /** The walk of `term`'s postings in community `number`; null when the table's average length cannot be read. */
  static async open(db: Kysely<Database>, number: number, term: string, batch: number): Promise<ImpactWalk | null> {
    const avgdl = await currentAverageLength(db);
    if (avgdl === null) return null;
    // Each group's shortest post (its best score); rows are read only from the groups the walk reaches.
    const heads = await sql<{ freq: number; shortest: number | null; bound: number | null }>`
      select freq, min(length) as shortest, null as bound from post_search_impacts
      where community = ${number} and term = ${term} group by freq
      union all
      select freq, null as shortest, length as bound from post_search_impact_bounds
      where community = ${number} and term = ${term}`.execute(db);
    const groups = new Map<number, Group>();
    for (const head of heads.rows) {
      const group = groups.get(head.freq);
      const shortest = head.shortest ?? group?.shortest ?? null;
      groups.set(head.freq, {
        freq: head.freq,
        bound: head.bound ?? group?.bound ?? null,
        shortest,
        rows: [],
        at: 0,
        drained: shortest === null,
      });
    }
    return new ImpactWalk(db, number, term, avgdl, [...groups.values()], batch);
  }

  /** bm25's impact of `freq` weighted hits in a post of `length` words, by this table's average length. */
  impactOf(freq: number, length: number): number {
    return impact(freq, length, this.avgdl);
  }

  private bestOf(group: Group): WalkBound | null {
    const length = group.rows[group.at]?.length ?? (group.rows.length === 0 && !group.drained ? group.shortest : null);
    if (length !== null && length !== undefined) return { impact: this.impactOf(group.freq, length), stored: true };
    if (group.bound === null) return null;
    return { impact: this.impactOf(group.freq, group.bound + 1), stored: false };
  }

  private best(): { group: Group; bound: WalkBound } | null {
    let found: { group: Group; bound: WalkBound } | null = null;
    for (const group of this.groups) {
      const bound = this.bestOf(group);
      if (bound && (found === null || bound.impact > found.bound.impact)) found = { group, bound };
    }
    return found;
  }

  /** The best impact a post not yet taken can have; null when every post of the word has been taken. */
  peek(): WalkBound | null {
    return this.best()?.bound ?? null;
  }

  /** The stored posting of the best impact still possible; null when that is a cut group's unstored post, or none. */
  async take(): Promise<Posting | null> {
    const best = this.best();
    if (!best?.bound.stored) return null;
    const { group } = best;
    if (group.rows.length === 0) await this.fill(group);
    const row = group.rows[group.at];
    if (!row) return null;
    group.at += 1;
    if (group.at >= group.rows.length && !group.drained) await this.fill(group);
    return { docid: row.docid, length: row.length, impact: best.bound.impact };
  }

  private async fill(group: Group): Promise<void> {
    const last = group.rows[group.rows.length - 1];
    const { rows } = await sql<{ length: number; docid: number }>`
      select length, docid from post_search_impacts
      where community = ${this.number} and term = ${this.term} and freq = ${group.freq}
        and (length, docid) > (${last?.length ?? -1}, ${last?.docid ?? -1})
      order by length, docid limit ${this.batch}`.execute(this.db);
    group.rows = rows;
    group.at = 0;
    group.drained = rows.length < this.batch;
  }
}

/** How many posts of community `number` hold impact word `term`; undefined when it is not one. */
export async function impactWordCount(db: Kysely<Database>, number: number, term: string): Promise<number | undefined> {
  const { rows } = await sql<{ docs: number }>`
    select docs from post_search_terms where community = ${number} and term = ${term}`.execute(db);
  const docs = rows[0]?.docs;
  return docs === undefined ? undefined : Number(docs);
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
  const total = await impactWordCount(db, number, term);
  if (total === undefined) return null;
  if (n <= 0 || total === 0) return { total, ranked: [] };
  const walk = await ImpactWalk.open(db, number, term, n + TIE_SLACK);
  if (!walk) return null;
  const ranked: Scored[] = [];
  let nth = Number.NaN;
  for (;;) {
    const next = walk.peek();
    if (next === null) break;
    if (ranked.length >= n && next.impact < nth) break;
    // A cut group's unstored posts could rank here: the postings cannot prove this window.
    if (!next.stored) return null;
    const posting = await walk.take();
    if (!posting) return null;
    ranked.push({ docid: posting.docid, score: -posting.impact });
    if (ranked.length === n) nth = posting.impact;
  }
  return { total, ranked };
}
