// One-word search on PostgreSQL's impact postings (migration 032) ranks as exact ts_rank over every match does, on
// random corpora whose kept ranks are cut shallow: every page, exact totals, pages that never repeat or skip (across
// the kept ranks and the fallback below them), kept scores equal to the bit, and inserts, edits and deletes seen at once.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactSearch } from '../../bench/exact-search.js';
import { baseRecords } from '../../fixtures/community.js';
import { ranksOf } from '../../src/search/postgres-search-index.js';
import { buildPostgresSearchRanks } from '../../src/search/postgres-search-ranks-build.js';
import { searchIndexFor } from '../../src/search/search-index-factory.js';
import { parseSearchQuery } from '../../src/search/search-query.js';
import { datedPost } from '../helpers/dated-post.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { expectPagesExact } from '../helpers/exact-pages.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord'];
const DOCS = 150;
/** Small enough that every word gets ranks and each is cut after a few posts: the fallback below them is exercised. */
const SHAPE = { minDocs: 10, depth: 3 };

const word = fc.constantFrom(...WORDS);
const text = (max: number) => fc.array(word, { minLength: 0, maxLength: max }).map((words) => words.join(' '));
const doc = fc.record({ title: text(3), body: text(25), day: fc.integer({ min: 1, max: 28 }) });

describe.runIf(testDatabaseUrl !== null)('one-word search on PostgreSQL impact postings', () => {
  let t: TestApp;
  let community: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ community } = await t.seed('ranks', baseRecords));
    const docs = fc.sample(doc, { numRuns: DOCS, seed: 42 });
    await t.importRecords(
      community,
      docs.map((d, i) => datedPost(`rankpost${String(i).padStart(4, '0')}`, d.title || null, d.body, d.day)),
    );
    await t.testStore.store.db.transaction().execute((trx) => buildPostgresSearchRanks(trx, community, SHAPE));
  });
  afterAll(() => t.close());

  const db = () => t.testStore.store.db;
  const search = (q: string, offset: number, limit: number) =>
    searchIndexFor(t.testStore.store.dialect).search(db(), 'post', community, parseSearchQuery(q), { offset, limit });
  const exact = (q: string) =>
    exactSearch(t.testStore.store.dialect)(db(), 'post', community, parseSearchQuery(q), { limit: 1000, offset: 0 });
  const lexemes = async () =>
    (
      await sql<{ lexeme: string; docs: number; floor: number }>`
        select lexeme, docs, floor from post_search_lexemes where community_id = ${community} order by lexeme`.execute(
        db(),
      )
    ).rows;

  /**
   * The postings' promise, checked against post_search itself: each lexeme's count is its posts', each kept score
   * is the search's ts_rank to the bit, and every post scoring at least the floor is kept.
   */
  async function expectPostingsTrue(): Promise<void> {
    const { rows } = await sql<{
      lexeme: string;
      docs: number;
      held: number;
      kept: number;
      owed: number;
      wrong: number;
    }>`
      select l.lexeme, l.docs,
        (select count(*)::int from post_search s where s.community_id = l.community_id and s.document @@ hearth_lexeme_query(l.lexeme)) as held,
        (select count(*)::int from post_search_ranks r where r.community_id = l.community_id and r.lexeme = l.lexeme) as kept,
        (select count(*)::int from post_search s where s.community_id = l.community_id
           and s.document @@ hearth_lexeme_query(l.lexeme)
           and ts_rank('{0, 0, 0.1, 1}'::real[], s.document, to_tsquery('hearth_search', l.lexeme), 1) >= l.floor
           and not exists (select 1 from post_search_ranks r where r.community_id = s.community_id
             and r.lexeme = l.lexeme and r.id = s.id)) as owed,
        (select count(*)::int from post_search_ranks r join post_search s on s.community_id = r.community_id and s.id = r.id
           where r.community_id = l.community_id and r.lexeme = l.lexeme
             and (float4send(r.score) <> float4send(ts_rank('{0, 0, 0.1, 1}'::real[], s.document,
                   to_tsquery('hearth_search', l.lexeme), 1)) or r.created_at <> s.created_at)) as wrong
      from post_search_lexemes l where l.community_id = ${community} order by l.lexeme`.execute(db());
    expect(rows.map((row) => row.lexeme)).toEqual([...WORDS].sort());
    for (const row of rows) {
      expect(row.docs, row.lexeme).toBe(row.held);
      expect(row.owed, row.lexeme).toBe(0);
      expect(row.wrong, row.lexeme).toBe(0);
      expect(row.kept, row.lexeme).toBeGreaterThan(0);
    }
  }

  it('keeps every word of the corpus, cut at its floor, each kept score equal to the ranking to the bit', async () => {
    const kept = await lexemes();
    for (const w of WORDS) expect(kept.find((row) => row.lexeme === w)?.docs, w).toBe((await exact(w)).length);
    // Each is cut: its best few kept, the rest below a floor.
    for (const row of kept) expect(row.floor, row.lexeme).toBeGreaterThan(0);
    await expectPostingsTrue();
    // The lexeme's tsquery is the one a one-word search makes, so the kept scores are the ranking's own.
    const { rows } = await sql<{ same: boolean }>`
      select bool_and(hearth_lexeme_query(l.lexeme) = to_tsquery('hearth_search', l.lexeme)) as same
      from post_search_lexemes l where l.community_id = ${community}`.execute(db());
    expect(rows[0]?.same).toBe(true);
  });

  it('answers a first page from the kept ranks, and a page below them by ranking every match', async () => {
    const expected = await exact('cedar');
    const shallow = await ranksOf(db(), community, parseSearchQuery('cedar'), { offset: 0, limit: 3 });
    expect(shallow).toEqual({ total: expected.length, ids: expected.slice(0, 3) });
    const deep = await ranksOf(db(), community, parseSearchQuery('cedar'), { offset: 2, limit: 5 });
    expect(deep).toEqual({ total: expected.length, ids: null });
    expect((await search('cedar', 2, 5)).ids).toEqual(expected.slice(2, 7));
    // Not one plain word: no kept ranks asked.
    expect(await ranksOf(db(), community, parseSearchQuery('cedar birch'), { offset: 0, limit: 3 })).toBeNull();
    expect(await ranksOf(db(), community, parseSearchQuery('"cedar birch"'), { offset: 0, limit: 3 })).toBeNull();
    expect(await ranksOf(db(), community, parseSearchQuery('zircon'), { offset: 0, limit: 3 })).toBeNull();
  });

  it('answers every page as the exact ranking does, with the exact total', async () => {
    await fc.assert(
      fc.asyncProperty(word, fc.integer({ min: 1, max: 12 }), async (q, perPage) => {
        const expected = await exact(q);
        await expectPagesExact(search, q, perPage, expected);
      }),
      { numRuns: 30, seed: 43 },
    );
  });

  it('answers `a OR b` of two kept words from their ranks, every page as the exact ranking does', async () => {
    // The path is taken: a first page proven from the ranks (n = 1 is within every word's kept posts lacking the other,
    // or the word keeps every post), a deep one not.
    const first = await ranksOf(db(), community, parseSearchQuery('cedar OR birch'), { offset: 0, limit: 1 });
    expect(first?.total).toBe((await exact('cedar OR birch')).length);
    // `cedar OR cedar` is parsed as `cedar`: one word, answered from its kept ranks as `cedar` is.
    expect(await ranksOf(db(), community, parseSearchQuery('cedar OR cedar'), { offset: 0, limit: 3 })).toEqual(
      await ranksOf(db(), community, parseSearchQuery('cedar'), { offset: 0, limit: 3 }),
    );
    expect((await ranksOf(db(), community, parseSearchQuery('cedar'), { offset: 0, limit: 3 }))?.ids).toEqual(
      (await exact('cedar')).slice(0, 3),
    );
    expect(await ranksOf(db(), community, parseSearchQuery('cedar OR zircon'), { offset: 0, limit: 1 })).toBeNull();
    // The claim the merge rests on: a post holding one word only scores in the OR its one-word score halved, to the bit.
    const { rows: halves } = await sql<{ pairs: number; equal: number }>`
      select count(*)::int as pairs, count(*) filter (where float4send(ts_rank('{0, 0, 0.1, 1}'::real[], s.document,
          hearth_lexeme_query(a.lexeme) || hearth_lexeme_query(b.lexeme), 1))
        = float4send(ts_rank('{0, 0, 0.1, 1}'::real[], s.document, hearth_lexeme_query(a.lexeme), 1) / 2::real))::int as equal
      from post_search s, post_search_lexemes a, post_search_lexemes b
      where s.community_id = ${community} and a.community_id = ${community} and b.community_id = ${community}
        and a.lexeme <> b.lexeme and s.document @@ hearth_lexeme_query(a.lexeme)
        and not s.document @@ hearth_lexeme_query(b.lexeme)`.execute(db());
    expect(halves[0]?.pairs).toBeGreaterThan(100);
    expect(halves[0]?.equal).toBe(halves[0]?.pairs);
    let proven = 0;
    await fc.assert(
      fc.asyncProperty(word, word, fc.integer({ min: 1, max: 12 }), async (a, b, perPage) => {
        const q = `${a} OR ${b}`;
        const expected = await exact(q);
        await expectPagesExact(search, q, perPage, expected);
        const top = await ranksOf(db(), community, parseSearchQuery(q), { offset: 0, limit: 2 });
        if (top?.ids) {
          expect(top.ids, q).toEqual(expected.slice(0, 2));
          proven += 1;
        }
      }),
      { numRuns: 30, seed: 45 },
    );
    // The kept ranks answered some of them (the others: `a OR a`, or a word whose kept posts all hold the other).
    expect(proven).toBeGreaterThan(0);
  });

  it('follows inserts, edits and deletes at once', async () => {
    const before = await exact('cedar');
    await t.importRecords(community, [datedPost('ranknewpost1', 'cedar cedar', 'cedar', 5)]);
    let got = await search('cedar', 0, 3);
    expect(got.total).toBe(before.length + 1);
    expect(got.ids[0]).toBe('ranknewpost1');
    expect((await search('cedar', 0, 1000)).ids).toEqual(await exact('cedar'));
    // An edit: the post leaves cedar's postings and joins quartz's matches.
    await t.importRecords(community, [datedPost('ranknewpost1', 'quartz', 'quartz birch', 5)]);
    got = await search('cedar', 0, 1000);
    expect(got.total).toBe(before.length);
    expect(got.ids).toEqual(before);
    expect((await search('birch', 0, 1000)).ids).toEqual(await exact('birch'));
    // A delete: the post stops matching, and so does any deleted post that was ranked first.
    const first = before[0] ?? '';
    await db()
      .deleteFrom('posts')
      .where('community_id', '=', community)
      .where('id', 'in', [first, 'ranknewpost1'])
      .execute();
    got = await search('cedar', 0, 3);
    expect(got.total).toBe(before.length - 1);
    expect(got.ids).toEqual(before.slice(1, 4));
    for (const w of WORDS) {
      expect((await search(w, 0, 2)).ids, w).toEqual((await exact(w)).slice(0, 2));
      expect((await search(w, 0, 1000)).ids, w).toEqual(await exact(w));
    }
    await expectPostingsTrue();
  });

  it('builds the postings of an import into an empty community, kept to their default depth', async () => {
    const empty = await t.community('ranksempty');
    const posts = Array.from({ length: 1000 }, (_, i) =>
      datedPost(
        `rankbulk${String(i).padStart(4, '0')}`,
        i % 10 === 0 ? `granite ${'ledge '.repeat(i % 13)}` : null,
        `granite ${'scree '.repeat(i % 17)}`,
        i,
      ),
    );
    await t.importRecords(empty, [...baseRecords, ...posts]);
    const { rows } = await sql<{ docs: number; floor: number; kept: number }>`
      select l.docs, l.floor, (select count(*)::int from post_search_ranks r
        where r.community_id = l.community_id and r.lexeme = l.lexeme) as kept
      from post_search_lexemes l where l.community_id = ${empty} and l.lexeme = 'granit'`.execute(db());
    // Every post holds the word; the 100 with it in their title are the best, each of a score of its own length.
    expect(rows).toHaveLength(1);
    expect(rows[0]?.docs).toBe(1000);
    expect(rows[0]?.kept).toBe(100);
    expect(rows[0]?.floor).toBeGreaterThan(0);
    const exactOf = (offset: number, limit: number) =>
      exactSearch(t.testStore.store.dialect)(db(), 'post', empty, parseSearchQuery('granite'), { offset, limit });
    const index = searchIndexFor(t.testStore.store.dialect);
    const page = (offset: number, limit: number) =>
      index.search(db(), 'post', empty, parseSearchQuery('granite'), { offset, limit });
    expect((await ranksOf(db(), empty, parseSearchQuery('granite'), { offset: 90, limit: 10 }))?.ids).toEqual(
      await exactOf(90, 10),
    );
    expect(await page(0, 10)).toEqual({ total: 1000, ids: await exactOf(0, 10) });
    // Below the kept 100: every match ranked, in the same exact order.
    expect(await ranksOf(db(), empty, parseSearchQuery('granite'), { offset: 95, limit: 10 })).toEqual({
      total: 1000,
      ids: null,
    });
    expect(await page(95, 10)).toEqual({ total: 1000, ids: await exactOf(95, 10) });
  });

  it('keeps the postings true through random writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: DOCS - 1 }), doc, fc.boolean(), async (n, d, remove) => {
        const id = `rankpost${String(n).padStart(4, '0')}`;
        if (remove) await db().deleteFrom('posts').where('community_id', '=', community).where('id', '=', id).execute();
        else await t.importRecords(community, [datedPost(id, d.title || null, d.body, d.day)]);
        for (const w of WORDS) {
          const expected = await exact(w);
          const page = await search(w, 0, 3);
          expect(page, w).toEqual({ total: expected.length, ids: expected.slice(0, 3) });
        }
      }),
      { numRuns: 20, seed: 44 },
    );
    await expectPostingsTrue();
  });
});
