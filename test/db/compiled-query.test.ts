// A statement compiled once (db/compiled-query.ts) binds each call's arguments where the builder placed them, keeps
// the builder's constants, and runs inside a transaction like any other statement, on either store.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reusedQuery } from '../../src/db/compiled-query.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t?.cleanup();
});

const insert = reusedQuery<[string, string]>((db, $) =>
  db
    .insertInto('communities')
    .values({ id: $(0), slug: $(1), name: 'Reused', created_at: '2026-01-01 00:00:00.000000' }),
);
const bySlug = reusedQuery<[string], { id: string; name: string; created_at: string }>((db, $) =>
  db.selectFrom('communities').select(['id', 'name', 'created_at']).where('slug', '=', $(0)),
);
const rename = reusedQuery<[string, string]>((db, $) =>
  db
    .updateTable('communities')
    .set({ name: $(1) })
    .where('slug', '=', $(0)),
);

describe('a statement compiled once', () => {
  it('binds new arguments on every call and keeps its constants', async () => {
    const { db } = t.store;
    expect(await insert.affected(db, 'reused-a', 'reused-a')).toBe(1);
    expect(await insert.affected(db, 'reused-b', 'reused-b')).toBe(1);
    expect(await bySlug.first(db, 'reused-b')).toEqual({
      id: 'reused-b',
      name: 'Reused',
      created_at: '2026-01-01 00:00:00.000000',
    });
    expect(await bySlug.all(db, 'reused-a')).toEqual([
      { id: 'reused-a', name: 'Reused', created_at: '2026-01-01 00:00:00.000000' },
    ]);
    expect(await bySlug.first(db, 'reused-none')).toBeUndefined();
    expect(await rename.affected(db, 'reused-none', 'Nobody')).toBe(0);
  });

  it('runs in the transaction it is given, and rolls back with it', async () => {
    const { db } = t.store;
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await rename.affected(trx, 'reused-a', 'Renamed')).toBe(1);
        expect(await bySlug.first(trx, 'reused-a')).toEqual({
          id: 'reused-a',
          name: 'Renamed',
          created_at: '2026-01-01 00:00:00.000000',
        });
        await sql`select 1`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await bySlug.first(db, 'reused-a')).toEqual({
      id: 'reused-a',
      name: 'Reused',
      created_at: '2026-01-01 00:00:00.000000',
    });
  });
});
