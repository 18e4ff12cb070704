// The impact postings' build (SQLite) against the rule it implements, computed here the plain way from the index's
// rows: per frequent word its post count, per weighted-hits group its `depth` shortest posts and any as short as the
// last, and a bound for each group cut short. Posts long enough that their lengths take several bytes in FTS5's records.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { buildSearchImpacts } from '../../src/search/sqlite-search-impacts-build.js';
import { fts5Varints } from '../../src/search/sqlite-fts5-records.js';
import { datedPost } from '../helpers/dated-post.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'gorse'];
const SHAPE = { minDocs: 12, depth: 3 };

let t: TestApp;
let community: string;
let sqlite: boolean;

const word = fc.constantFrom(...WORDS);
const text = (max: number, min = 0) =>
  fc.array(word, { minLength: min, maxLength: max }).map((words) => words.join(' '));
const doc = fc.record({
  title: text(3),
  body: fc.oneof(text(8), text(8), text(300, 130)),
  day: fc.integer({ min: 1, max: 28 }),
});

beforeAll(async () => {
  t = await createTestApp();
  ({ community } = await t.seed('impacts-build', baseRecords));
  sqlite = t.testStore.store.dialect.name === 'sqlite';
  const docs = fc.sample(doc, { numRuns: 160, seed: 7 });
  await t.importRecords(
    community,
    docs.map((d, i) => datedPost(`builds${String(i).padStart(6, '0')}`, d.title || null, d.body, d.day)),
  );
});
afterAll(() => t.close());

type Rows = { terms: string[]; impacts: string[]; bounds: string[] };

/** The three tables' rows of the community, as sorted text. */
async function held(number: number): Promise<Rows> {
  const db = t.testStore.store.db;
  const all = async (table: string) =>
    (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where community = ${number}`.execute(db)).rows
      .map((row) => JSON.stringify(Object.values(row)))
      .sort();
  return {
    terms: await all('post_search_terms'),
    impacts: await all('post_search_impacts'),
    bounds: await all('post_search_impact_bounds'),
  };
}

/** The rule, the plain way: a row per document and per hit, each group sorted whole. */
async function expected(number: number): Promise<Rows> {
  const db = t.testStore.store.db;
  const from = number * 4294967296;
  const to = from + 4294967295;
  const lengths = new Map<number, number>();
  const sizes = await sql<{ id: number; sz: Uint8Array }>`
    select id, sz from post_search_docsize where id between ${from} and ${to}`.execute(db);
  for (const row of sizes.rows)
    lengths.set(
      row.id,
      fts5Varints(row.sz).reduce((a, b) => a + b, 0),
    );
  const rows: Rows = { terms: [], impacts: [], bounds: [] };
  const vocab = await sql<{ term: string }>`select term from post_search_vocab where doc >= ${SHAPE.minDocs}`.execute(
    db,
  );
  for (const { term } of vocab.rows) {
    const hits = await sql<{ doc: number; freq: number }>`
      select doc, sum(iif(col = 'title', 10, 1)) as freq from post_search_instances
      where term = ${term} and doc between ${from} and ${to} group by doc`.execute(db);
    if (hits.rows.length < SHAPE.minDocs) continue;
    rows.terms.push(JSON.stringify([number, term, hits.rows.length]));
    const groups = new Map<number, { doc: number; length: number }[]>();
    for (const { doc, freq } of hits.rows)
      groups.set(freq, [...(groups.get(freq) ?? []), { doc, length: lengths.get(doc) ?? 0 }]);
    for (const [freq, group] of groups) {
      group.sort((a, b) => a.length - b.length || a.doc - b.doc);
      let end = Math.min(group.length, SHAPE.depth);
      const last = group[end - 1];
      while (last && end < group.length && group[end]?.length === last.length) end++;
      if (last && end < group.length) rows.bounds.push(JSON.stringify([number, term, freq, last.length]));
      for (const p of group.slice(0, end)) rows.impacts.push(JSON.stringify([number, term, freq, p.length, p.doc]));
    }
  }
  return { terms: rows.terms.sort(), impacts: rows.impacts.sort(), bounds: rows.bounds.sort() };
}

describe('impact postings build', () => {
  it('holds every frequent word, its groups cut at the depth with ties kept, and the bounds of the groups cut', async (context) => {
    if (!sqlite) return context.skip();
    const db = t.testStore.store.db;
    const { rows } = await sql<{ number: number }>`
      select number from search_communities where community_id = ${community}`.execute(db);
    const number = rows[0]?.number ?? -1;
    await db.transaction().execute((trx) => buildSearchImpacts(trx, community, SHAPE));
    const built = await held(number);
    const want = await expected(number);
    expect(want.terms.length).toBe(WORDS.length);
    expect(want.bounds.length).toBeGreaterThan(0);
    // Lengths of several bytes in FTS5's records were read, and the kept posts' lengths are their own.
    const longest = await sql<{
      n: number;
    }>`select max(length) as n from post_search_impacts where community = ${number}`.execute(db);
    expect(Number(longest.rows[0]?.n)).toBeGreaterThan(0);
    const long = await sql<{ n: number }>`select count(*) as n from post_search_docsize where length(sz) > 2`.execute(
      db,
    );
    expect(Number(long.rows[0]?.n)).toBeGreaterThan(0);
    expect(built).toEqual(want);
  });
});
