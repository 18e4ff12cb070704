// PostgreSQL: a large import leaves the planner knowing how many rows it wrote (so a first page walks an index
// instead of sorting every post) and the table's pages all-visible (so a deep page's index-only walk stays in
// the index); a small one leaves both to autovacuum.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRecords } from '../../src/demo/demo-records.js';
import { importLines } from '../../src/import/import.service.js';
import { ANALYZE_FROM_RECORDS } from '../../src/import/write-store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testDatabaseUrl } from '../helpers/test-store.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
let t: TestApp;

/** The planner's estimate of the community's posts. */
async function estimatedPosts(communityId: string): Promise<number> {
  const plan = await sql<{
    'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
  }>`explain (format json) select id from posts where community_id = ${communityId}`.execute(t.testStore.store.db);
  return plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? Number.NaN;
}

describe.runIf(testDatabaseUrl)('planner statistics after an import (PostgreSQL)', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are refreshed, with a vacuum, by an import of 10,000 records or more, not by a smaller one', async () => {
    const small = await t.community('small');
    const few = [...demoRecords({ now: NOW, scale: 200, seed: 2 })];
    expect(few.length).toBeLessThan(ANALYZE_FROM_RECORDS);
    await importLines(
      t.testStore.store,
      small,
      few.map((r) => JSON.stringify(r)),
    );
    expect(await estimatedPosts(small)).toBeLessThan(100);

    const large = await t.community('large');
    const many = [...demoRecords({ now: NOW, scale: 3200, seed: 3 })];
    expect(many.length).toBeGreaterThanOrEqual(ANALYZE_FROM_RECORDS);
    await importLines(
      t.testStore.store,
      large,
      many.map((r) => JSON.stringify(r)),
    );
    const estimate = await estimatedPosts(large);
    expect(estimate).toBeGreaterThan(3200 * 0.8);
    expect(estimate).toBeLessThan(3200 * 1.2);
    const pages = await sql<{
      relpages: number;
      relallvisible: number;
    }>`select relpages, relallvisible from pg_class where relname = 'posts'`.execute(t.testStore.store.db);
    expect(pages.rows[0]?.relpages).toBeGreaterThan(0);
    // Never vacuumed, none is; a page whose dead versions another session may still see stays unmarked.
    expect(pages.rows[0]?.relallvisible).toBeGreaterThan((pages.rows[0]?.relpages ?? 0) * 0.9);
  }, 120_000);
});
