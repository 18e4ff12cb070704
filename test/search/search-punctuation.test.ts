// PostgreSQL blanks punctuation before parsing with a regular-expression class: exactly the characters of the
// ASCII punctuation list, whatever the text and collation, so documents made before and after match.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUNCTUATION_CLASS } from '../../src/import/search-load-documents.js';
import { createTestStore, testDatabaseUrl, type TestStore } from '../helpers/test-store.js';

/** What the search documents blanked before the class: `translate` of these 32 characters into spaces. */
const ASCII_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

let t: TestStore;
beforeAll(async () => {
  if (testDatabaseUrl) t = await createTestStore();
});
afterAll(() => t?.cleanup());

describe.runIf(testDatabaseUrl)('search punctuation on PostgreSQL', () => {
  it('blanks exactly the ASCII punctuation, as translate of the list does, over the first 12,287 code points', async () => {
    const { rows } = await sql<{ same: boolean; icu: boolean; blanked: number }>`
      with s as (select string_agg(chr(c), '') as t from generate_series(1, 12287) c where c not between 55296 and 57343)
      select regexp_replace(t, ${PUNCTUATION_CLASS}, ' ', 'g') = translate(t, ${ASCII_PUNCTUATION}, ${' '.repeat(32)}) as same,
             regexp_replace(t collate "und-x-icu", ${PUNCTUATION_CLASS}, ' ', 'g') = translate(t, ${ASCII_PUNCTUATION}, ${' '.repeat(32)}) as icu,
             length(t) - length(replace(regexp_replace(t, ${PUNCTUATION_CLASS}, chr(40000), 'g'), chr(40000), '')) as blanked
      from s`.execute(t.store.db);
    expect(rows).toEqual([{ same: true, icu: true, blanked: 32 }]);
    expect(ASCII_PUNCTUATION).toHaveLength(32);
  });
});
