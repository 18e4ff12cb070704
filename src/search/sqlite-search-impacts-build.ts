// Builds a community's impact postings (migration 022) from the FTS5 index in one pass: after a bulk import, and
// for stores upgraded to 022. The triggers keep them in step afterwards.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { defaultImpactShape, type ImpactShape } from './search-budget.js';
import { DocNumbers, docRange, readHits, readLengths } from './sqlite-search-impacts-read.js';

const RANGE = 4294967296;

/**
 * One (word, weighted hits, length) group's postings in one statement, their docids (offsets from the community's
 * first) as a JSON array: a row of five values bound per posting, then frozen and walked, cost more than SQLite's
 * writing of them (a million postings at a million posts).
 */
const INSERT_GROUP = `insert into post_search_impacts (community, term, freq, length, docid)
  select ?, ?, ?, ?, cast(? + value as integer) from json_each(?)`;

const INSERT_BOUND = 'insert into post_search_impact_bounds (community, term, freq, length) values (?, ?, ?, ?)';

/**
 * Replaces the community's impact postings: every word held by at least `shape.minDocs` of its posts gets its count
 * and, per weighted-hits group, its `shape.depth` shortest posts (and any as short as the last; a cut group's
 * bound says how far it is complete). Runs inside the caller's transaction.
 */
export async function buildSearchImpacts(db: Kysely<Database>, communityId: string, shape: ImpactShape): Promise<void> {
  const found = await sql<{ number: number }>`
    select number from search_communities where community_id = ${communityId}`.execute(db);
  const number = found.rows[0]?.number;
  if (number === undefined) return;
  for (const table of ['post_search_terms', 'post_search_impacts', 'post_search_impact_bounds'])
    await sql`delete from ${sql.table(table)} where community = ${number}`.execute(db);
  const from = number * RANGE;
  const to = from + RANGE - 1;
  // Fewer posts than a word needs: no word qualifies, and the walk of the table's vocabulary is spared.
  const posts = await sql<{ n: number }>`
    select count(*) as n from post_search_docs where docid between ${from} and ${to}`.execute(db);
  if (Number(posts.rows[0]?.n ?? 0) < shape.minDocs) return;
  // Words frequent enough over the whole table; each is then counted within the community.
  const candidates = await sql<{ term: string }>`
    select term from post_search_vocab where doc >= ${shape.minDocs}`.execute(db);
  if (candidates.rows.length === 0) return;
  const { count, range } = await docRange(db, from, to);
  const lengths = new DocNumbers(range, count);
  await readLengths(db, from, to, lengths);
  const freqs = new DocNumbers(range, count);
  for (const { term } of candidates.rows) {
    const docs = await readHits(db, term, from, to, freqs);
    if (docs.length >= shape.minDocs) {
      await sql`insert into post_search_terms (community, term, docs) values (${number}, ${term}, ${docs.length})`.execute(
        db,
      );
      const { groups, bounds } = postingsOf(docs, freqs, lengths, shape.depth);
      for (const { freq, length, offsets } of groups)
        await db.executeQuery(
          CompiledQuery.raw(INSERT_GROUP, [number, term, freq, length, from, JSON.stringify(offsets)]),
        );
      for (const [freq, length] of bounds)
        await db.executeQuery(CompiledQuery.raw(INSERT_BOUND, [number, term, freq, length]));
    }
    for (const offset of docs) freqs.set(offset, 0);
  }
}

/** A word's kept postings of one weighted-hits count and one length: their offsets, ascending. */
interface PostingGroup {
  readonly freq: number;
  readonly length: number;
  readonly offsets: number[];
}

/**
 * A word's postings: its documents grouped by weighted hits, each group's `depth` shortest (and any as short as the
 * last: every document no longer than the depth-th shortest), split by length, in the table's key order (freq,
 * length, offset) so that SQLite appends each row after the last; and the bound [freq, length] of each group cut
 * short. Counts are kept in arrays indexed by freq: a map lookup per document per pass took most of this (several
 * million documents over a million posts' frequent words).
 */
function postingsOf(
  docs: readonly number[],
  freqs: DocNumbers,
  lengths: DocNumbers,
  depth: number,
): { groups: PostingGroup[]; bounds: [number, number][] } {
  let most = 0;
  for (const offset of docs) most = Math.max(most, freqs.get(offset));
  const sizes = new Uint32Array(most + 1);
  for (const offset of docs) {
    const freq = freqs.get(offset);
    sizes[freq] = (sizes[freq] ?? 0) + 1;
  }
  // The lengths of each group larger than `depth`, by freq, sorted: the depth-th is the longest kept (-1: the group
  // is whole).
  const cut: ({ lengths: Uint32Array; filled: number } | undefined)[] = new Array(most + 1);
  let cuts = 0;
  for (let freq = 0; freq <= most; freq++) {
    const size = sizes[freq] ?? 0;
    if (size > depth) {
      cut[freq] = { lengths: new Uint32Array(size), filled: 0 };
      cuts++;
    }
  }
  const longest = new Float64Array(most + 1).fill(-1);
  if (cuts > 0) {
    for (const offset of docs) {
      const group = cut[freqs.get(offset)];
      if (group) group.lengths[group.filled++] = lengths.get(offset);
    }
    cut.forEach((group, freq) => {
      if (group) longest[freq] = group.lengths.sort()[depth - 1] ?? 0;
    });
  }
  const kept = new Uint32Array(most + 1);
  // Offsets by freq, then by length; documents come in offset order, so each list is ascending.
  const byFreq = new Map<number, Map<number, number[]>>();
  for (const offset of docs) {
    const freq = freqs.get(offset);
    const length = lengths.get(offset);
    const limit = longest[freq] ?? -1;
    if (limit >= 0 && length > limit) continue;
    kept[freq] = (kept[freq] ?? 0) + 1;
    let byLength = byFreq.get(freq);
    if (!byLength) {
      byLength = new Map();
      byFreq.set(freq, byLength);
    }
    const offsets = byLength.get(length);
    if (offsets) offsets.push(offset);
    else byLength.set(length, [offset]);
  }
  const groups: PostingGroup[] = [];
  for (const freq of [...byFreq.keys()].sort((a, b) => a - b)) {
    const byLength = byFreq.get(freq) ?? new Map<number, number[]>();
    for (const length of [...byLength.keys()].sort((a, b) => a - b))
      groups.push({ freq, length, offsets: byLength.get(length) ?? [] });
  }
  const bounds: [number, number][] = [];
  cut.forEach((group, freq) => {
    if (group && (kept[freq] ?? 0) < (sizes[freq] ?? 0)) bounds.push([freq, longest[freq] ?? 0]);
  });
  return { groups, bounds };
}

/** Every community's impact postings, each community in a transaction of its own (a store upgraded to 022). */
export async function buildAllSearchImpacts(db: Kysely<Database>, shape: ImpactShape = defaultImpactShape) {
  const { rows } = await sql<{ community_id: string }>`select community_id from search_communities`.execute(db);
  for (const row of rows) await db.transaction().execute((trx) => buildSearchImpacts(trx, row.community_id, shape));
}
