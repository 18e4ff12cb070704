// What PostgreSQL's jsonb gives back, foreseen without a read (db/jsonb-order.ts): the import renders posts'
// fragments from the rows it writes, so they must equal what the store later reads back and renders.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inJsonbOrder } from '../../src/db/jsonb-order.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

/** JSON texts whose keys jsonb reorders, repeats, or spells numbers it keeps as exact decimals. */
const texts = [
  '{"type":"rich_text","elements":[{"z":1,"aa":2,"b":3}],"a":null}',
  // Byte order of UTF-8, not UTF-16: U+FF5A (3 bytes) before U+1F600 (4 bytes) by length; é (2 bytes) after z.
  '{"\u{1F600}":1,"\uFF5A":2,"é":3,"z":4,"\uE000x":5,"\u{10000}":6}',
  // Integer-like keys: JavaScript enumerates them first, in numeric order, whichever order jsonb gives.
  '{"b":1,"10":2,"9":3,"a":4,"-1":5,"01":6}',
  '{"k":1,"k":2,"j":{"y":[1,{"q":true,"p":false}],"x":"\\u0041\\n"}}',
  '{"__proto__":{"polluted":true},"constructor":1}',
  '[1.50,1e2,-0,0.1,12345678901234567890,1e-7,-2.5e+3,[],{}]',
  '"plain"',
  'null',
];

/** The keys of every object in `value`, in enumeration order, with the values: what serializers write. */
const spelled = (value: unknown) => JSON.stringify(value);

describe('jsonb key order', () => {
  it('puts shorter keys first, then bytewise as UTF-8', () => {
    expect(Object.keys(inJsonbOrder(JSON.parse(texts[1] as string)) as object)).toEqual([
      'z',
      'é',
      '\uFF5A',
      '\uE000x',
      '\u{10000}',
      '\u{1F600}',
    ]);
    expect(spelled(inJsonbOrder(JSON.parse(texts[0] as string)))).toBe(
      '{"a":null,"type":"rich_text","elements":[{"b":3,"z":1,"aa":2}]}',
    );
  });

  it('keeps __proto__ as a key of its own', () => {
    const value = inJsonbOrder(JSON.parse(texts[4] as string)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

let t: TestStore;
beforeAll(async () => {
  if (testDatabaseUrl) t = await createTestStore();
});
afterAll(() => t?.cleanup());

describe.runIf(testDatabaseUrl)('jsonb key order against PostgreSQL', () => {
  it('foresees what a jsonb column gives back, for each text', async () => {
    for (const text of texts) {
      const { rows } = await sql<{ value: unknown }>`select ${text}::jsonb as value`.execute(t.store.db);
      expect(spelled(inJsonbOrder(JSON.parse(text)))).toBe(spelled(rows[0]?.value));
    }
  });
});
