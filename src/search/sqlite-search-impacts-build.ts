// Builds a community's impact postings (migration 022) from the FTS5 index in one pass: after a bulk import, and
// for stores upgraded to 022. The triggers keep them in step afterwards.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { defaultImpactShape, type ImpactShape } from './search-budget.js';
import { docsizeLength } from './sqlite-fts5-records.js';

const RANGE = 4294967296;
/** Rows per insert statement (5 parameters each, well under SQLite's 32,766). */
const ROWS_PER_INSERT = 500;

interface Posting {
  readonly docid: number;
  readonly length: number;
}

async function insertRows(db: Kysely<Database>, table: string, columns: string, rows: readonly unknown[][]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    await sql`insert into ${sql.table(table)} (${sql.raw(columns)}) values ${sql.join(
      part.map((row) => sql`(${sql.join(row)})`),
    )}`.execute(db);
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
  const lengths = new Map<number, number>();
  const sizes = await sql<{ id: number; sz: Uint8Array }>`
    select id, sz from post_search_docsize where id between ${from} and ${to}`.execute(db);
  for (const row of sizes.rows) lengths.set(row.id, docsizeLength(row.sz));
  for (const { term } of candidates.rows) {
    const { rows } = await sql<{ doc: number; freq: number }>`
      select doc, sum(iif(col = 'title', 10, 1)) as freq from post_search_instances
      where term = ${term} and doc between ${from} and ${to} group by doc`.execute(db);
    if (rows.length < shape.minDocs) continue;
    const groups = new Map<number, Posting[]>();
    for (const row of rows) {
      const group = groups.get(row.freq) ?? [];
      if (group.length === 0) groups.set(row.freq, group);
      group.push({ docid: row.doc, length: lengths.get(row.doc) ?? 0 });
    }
    const impacts: unknown[][] = [];
    const bounds: unknown[][] = [];
    for (const [freq, group] of groups) {
      group.sort((a, b) => a.length - b.length || a.docid - b.docid);
      let end = Math.min(group.length, shape.depth);
      const last = group[end - 1];
      while (last !== undefined && end < group.length && group[end]?.length === last.length) end += 1;
      if (end < group.length && last !== undefined) bounds.push([number, term, freq, last.length]);
      for (const posting of group.slice(0, end)) impacts.push([number, term, freq, posting.length, posting.docid]);
    }
    await sql`insert into post_search_terms (community, term, docs) values (${number}, ${term}, ${rows.length})`.execute(
      db,
    );
    await insertRows(db, 'post_search_impacts', 'community, term, freq, length, docid', impacts);
    await insertRows(db, 'post_search_impact_bounds', 'community, term, freq, length', bounds);
  }
}

/** Every community's impact postings, each community in a transaction of its own (a store upgraded to 022). */
export async function buildAllSearchImpacts(db: Kysely<Database>, shape: ImpactShape = defaultImpactShape) {
  const { rows } = await sql<{ community_id: string }>`select community_id from search_communities`.execute(db);
  for (const row of rows) await db.transaction().execute((trx) => buildSearchImpacts(trx, row.community_id, shape));
}
