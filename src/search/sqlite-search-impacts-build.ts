// Builds a community's impact postings (migration 022) from the FTS5 index in one pass: after a bulk import, and
// for stores upgraded to 022. The triggers keep them in step afterwards.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { defaultImpactShape, type ImpactShape } from './search-budget.js';
import { DocNumbers, docRange, readHits, readLengths } from './sqlite-search-impacts-read.js';

const RANGE = 4294967296;
/** Rows per insert statement (5 parameters each, well under SQLite's 32,766). */
const ROWS_PER_INSERT = 500;

/** Texts of full statements (ROWS_PER_INSERT rows) by table and columns. */
const texts = new Map<string, string>();

function insertText(table: string, columns: string, width: number, size: number): string {
  const row = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  return `insert into "${table}" (${columns}) values ${Array.from({ length: size }, () => row).join(', ')}`;
}

/**
 * Inserts rows as statements of plain text with `?` placeholders, their values bound as they are: built as a `sql`
 * template of a fragment per row, Kysely's freezing and walking of those took four times SQLite's own work (1.27 s against
 * 0.31 s over 200,000 posts).
 */
async function insertRows(db: Kysely<Database>, table: string, columns: string, rows: readonly unknown[][]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    const width = part[0]?.length ?? 0;
    let text = part.length === ROWS_PER_INSERT ? texts.get(`${table}|${columns}`) : undefined;
    if (text === undefined) {
      text = insertText(table, columns, width, part.length);
      if (part.length === ROWS_PER_INSERT) texts.set(`${table}|${columns}`, text);
    }
    await db.executeQuery(CompiledQuery.raw(text, part.flat()));
  }
}

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
      const { impacts, bounds } = postingsOf(docs, freqs, lengths, shape.depth);
      await insertRows(
        db,
        'post_search_impacts',
        'community, term, freq, length, docid',
        impacts.map(([freq, length, offset]) => [number, term, freq, length, from + offset]),
      );
      await insertRows(
        db,
        'post_search_impact_bounds',
        'community, term, freq, length',
        bounds.map(([freq, length]) => [number, term, freq, length]),
      );
    }
    for (const offset of docs) freqs.set(offset, 0);
  }
}

/**
 * A word's postings: its documents grouped by weighted hits, each group's `depth` shortest (and any as short as the
 * last: every document no longer than the depth-th shortest), as [freq, length, offset]; and the bound
 * [freq, length] of each group cut short.
 */
function postingsOf(
  docs: readonly number[],
  freqs: DocNumbers,
  lengths: DocNumbers,
  depth: number,
): { impacts: [number, number, number][]; bounds: [number, number][] } {
  const sizes = new Map<number, number>();
  for (const offset of docs) {
    const freq = freqs.get(offset);
    sizes.set(freq, (sizes.get(freq) ?? 0) + 1);
  }
  // The lengths of each group larger than `depth`, sorted: the depth-th is the longest kept.
  const cut = new Map<number, { lengths: Uint32Array; filled: number }>();
  for (const [freq, size] of sizes) if (size > depth) cut.set(freq, { lengths: new Uint32Array(size), filled: 0 });
  if (cut.size > 0)
    for (const offset of docs) {
      const group = cut.get(freqs.get(offset));
      if (group) group.lengths[group.filled++] = lengths.get(offset);
    }
  const longest = new Map<number, number>();
  for (const [freq, group] of cut) longest.set(freq, group.lengths.sort()[depth - 1] ?? 0);
  const impacts: [number, number, number][] = [];
  const kept = new Map<number, number>();
  for (const offset of docs) {
    const freq = freqs.get(offset);
    const length = lengths.get(offset);
    const limit = longest.get(freq);
    if (limit !== undefined && length > limit) continue;
    impacts.push([freq, length, offset]);
    kept.set(freq, (kept.get(freq) ?? 0) + 1);
  }
  const bounds: [number, number][] = [];
  for (const [freq, limit] of longest) if ((kept.get(freq) ?? 0) < (sizes.get(freq) ?? 0)) bounds.push([freq, limit]);
  return { impacts, bounds };
}

/** Every community's impact postings, each community in a transaction of its own (a store upgraded to 022). */
export async function buildAllSearchImpacts(db: Kysely<Database>, shape: ImpactShape = defaultImpactShape) {
  const { rows } = await sql<{ community_id: string }>`select community_id from search_communities`.execute(db);
  for (const row of rows) await db.transaction().execute((trx) => buildSearchImpacts(trx, row.community_id, shape));
}
