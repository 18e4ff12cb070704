// The import's batched writes: upserts give the rows an upsert gives, whether SQLite first tried them as plain
// inserts (keys new, taken, or given twice in one call) or not, and whether PostgreSQL wrote them through COPY in
// an import's transaction; plain inserts refuse a taken key.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { writeFragments } from '../../src/fragments/fragments.repository.js';
import type { Database } from '../../src/db/database.js';
import { copyValue } from '../../src/db/postgres-copy.js';
import { insertRows, upsertRows } from '../../src/db/batch.js';
import { importStoreFor } from '../../src/import/write-store.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
let t: TestStore;
let community: string;

beforeAll(async () => {
  t = await createTestStore();
  community = (await createCommunitiesService(t.store.db, t.store.dialect, () => NOW).create('batch', 'batch')).id;
});
afterAll(() => t.cleanup());

const tag = (id: string, label: string) => ({
  community_id: community,
  id,
  created_at: '2026-03-01T12:00:00.000Z',
  tag_group_id: null,
  label,
});
const id = (n: number) => `t${String(n).padStart(4, '0')}`;

async function tags(): Promise<[string, string][]> {
  const rows = await t.store.db
    .selectFrom('tags')
    .select(['id', 'label'])
    .where('community_id', '=', community)
    .orderBy('id')
    .execute();
  return rows.map((row) => [row.id, row.label]);
}

describe('upsertRows', () => {
  it('inserts new keys, replaces taken ones, and keeps the last of a key given twice, across statements', async () => {
    await t.store.db.deleteFrom('tags').where('community_id', '=', community).execute();
    // 300 rows: a statement of 256, then 32, 8 and 4; keys 0..279, with 0..19 given again at the end.
    const first = Array.from({ length: 280 }, (_, n) => tag(id(n), `first ${n}`));
    const again = Array.from({ length: 20 }, (_, n) => tag(id(n), `again ${n}`));
    await upsertRows(t.store.db, 'tags', [...first, ...again]);
    const expected: [string, string][] = Array.from({ length: 280 }, (_, n) => [
      id(n),
      n < 20 ? `again ${n}` : `first ${n}`,
    ]);
    expect(await tags()).toEqual(expected);

    // Half taken, half new, in one call: the first statement is an insert that fails on a taken key.
    await upsertRows(
      t.store.db,
      'tags',
      Array.from({ length: 40 }, (_, n) => tag(id(260 + n), `second ${260 + n}`)),
    );
    for (let n = 260; n < 300; n++) expected[n] = [id(n), `second ${n}`];
    expect(await tags()).toEqual(expected);
  });

  it('keeps its set expressions for taken keys: a fragment keeps its version while its body is unchanged', async () => {
    const fragment = (body: string, version: number) => ({
      community_id: community,
      kind: 'tag' as const,
      id: 'f1',
      version,
      refs: '',
      body: Buffer.from(body),
    });
    const read = () =>
      t.store.db
        .selectFrom('fragments')
        .select(['version', sql<string>`body`.as('body')])
        .where('community_id', '=', community)
        .where('id', '=', 'f1')
        .executeTakeFirstOrThrow();
    await writeFragments(t.store.db, [fragment('{"a":1}', 7)]);
    expect((await read()).version).toBe(7);
    await writeFragments(t.store.db, [fragment('{"a":1}', 8)]);
    expect(Number((await read()).version)).toBe(7);
    await writeFragments(t.store.db, [fragment('{"a":2}', 9)]);
    expect(Number((await read()).version)).toBe(9);
  });
});

describe('insertRows', () => {
  it('refuses a taken key, as a unique violation of the store', async () => {
    await t.store.db.deleteFrom('tags').where('community_id', '=', community).execute();
    await insertRows(t.store.db, 'tags', [tag('x1', 'one')]);
    const error = await insertRows(t.store.db, 'tags', [tag('x2', 'two'), tag('x1', 'again')]).catch((e) => e);
    expect(t.store.dialect.isUniqueViolation(error)).toBe(true);
  });
});

describe('in an import transaction (PostgreSQL: through COPY)', () => {
  const inImport = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
    importStoreFor(t.store.dialect).transaction(t.store.db, work);

  it('upserts as outside one: new keys inserted, taken ones replaced, the last of a key given twice kept', async () => {
    await t.store.db.deleteFrom('tags').where('community_id', '=', community).execute();
    await insertRows(t.store.db, 'tags', [tag('c1', 'held')]);
    await inImport(async (trx) => {
      await upsertRows(trx, 'tags', [tag('c1', 'replaced'), tag('c2', 'first'), tag('c3', 'new'), tag('c2', 'last')]);
      // A second call in the same transaction reuses the staging table, emptied after the first.
      await upsertRows(trx, 'tags', [tag('c4', 'second call')]);
    });
    expect(await tags()).toEqual([
      ['c1', 'replaced'],
      ['c2', 'last'],
      ['c3', 'new'],
      ['c4', 'second call'],
    ]);
  });

  it('writes every character and byte as given: tabs, newlines, backslashes, quotes, nulls and binary bodies', async () => {
    await t.store.db.deleteFrom('tags').where('community_id', '=', community).execute();
    const labels = ['a\tb', 'line\nnext\r\nend', 'back\\slash \\N \\x41', '"quoted", \'single\'', 'ünï ☃ 𝄞', '\\'];
    const body = Buffer.from([0, 1, 9, 10, 13, 92, 255, 0x5c, 0x4e]);
    await inImport(async (trx) => {
      await insertRows(
        trx,
        'tags',
        labels.map((label, n) => tag(`e${n}`, label)),
      );
      await upsertRows(trx, 'tags', [{ ...tag('e9', 'group'), tag_group_id: null }]);
      await insertRows(trx, 'fragments', [
        { community_id: community, kind: 'tag', id: 'bin', version: 1, refs: 'a\tb', body },
      ]);
    });
    expect(await tags()).toEqual([...labels.map((label, n): [string, string] => [`e${n}`, label]), ['e9', 'group']]);
    const group = await t.store.db
      .selectFrom('tags')
      .select('tag_group_id')
      .where('id', '=', 'e9')
      .executeTakeFirstOrThrow();
    expect(group.tag_group_id).toBeNull();
    const stored = await t.store.db
      .selectFrom('fragments')
      .select(['refs', 'body'])
      .where('community_id', '=', community)
      .where('id', '=', 'bin')
      .executeTakeFirstOrThrow();
    expect(stored.refs).toBe('a\tb');
    expect(Buffer.from(stored.body as Uint8Array).equals(body)).toBe(true);
  });

  it('refuses a taken key on insert, and the transaction keeps nothing', async () => {
    await t.store.db.deleteFrom('tags').where('community_id', '=', community).execute();
    await insertRows(t.store.db, 'tags', [tag('k1', 'held')]);
    const error = await inImport(async (trx) => {
      await insertRows(trx, 'tags', [tag('k2', 'new')]);
      await insertRows(trx, 'tags', [tag('k3', 'new'), tag('k1', 'again')]);
    }).catch((e: unknown) => e);
    expect(t.store.dialect.isUniqueViolation(error)).toBe(true);
    expect(await tags()).toEqual([['k1', 'held']]);
  });
});

describe('copyValue', () => {
  it("spells values in COPY's text format", () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyValue(12.5)).toBe('12.5');
    expect(copyValue(true)).toBe('t');
    expect(copyValue(Buffer.from([0, 255]))).toBe('\\\\x00ff');
    expect(copyValue({ a: 'x\ty' })).toBe('{"a":"x\\\\ty"}');
    expect(() => copyValue(['a'])).toThrow(/array/);
  });
});
