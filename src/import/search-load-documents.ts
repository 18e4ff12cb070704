// What the import's one-pass search load writes for a post or comment: the same documents the search triggers of
// migrations 002 and 008 write row by row (test/import/search-load-documents.test.ts compares the two).
export type SearchSource = 'posts' | 'comments';

interface DocumentSpec {
  /** The search table (FTS5 table on SQLite, tsvector table on PostgreSQL). */
  readonly index: 'post_search' | 'comment_search';
  readonly columns: readonly {
    readonly name: string;
    readonly column: string;
    readonly limit: number;
    readonly weight: 'A' | 'B';
  }[];
}

/** Texts are cut to a bound so that PostgreSQL's 1 MB tsvector limit can never fail an import; SQLite cuts alike. */
const TITLE_INDEX_LIMIT = 10_000;
export const BODY_INDEX_LIMIT = 100_000;

const specs: Record<SearchSource, DocumentSpec> = {
  posts: {
    index: 'post_search',
    columns: [
      { name: 'title', column: 'title', limit: TITLE_INDEX_LIMIT, weight: 'A' },
      { name: 'body', column: 'body_plaintext', limit: BODY_INDEX_LIMIT, weight: 'B' },
    ],
  },
  comments: {
    index: 'comment_search',
    columns: [{ name: 'body', column: 'body_plaintext', limit: BODY_INDEX_LIMIT, weight: 'B' }],
  },
};

/**
 * ASCII punctuation blanked before PostgreSQL parses the text, so that both stores see the same words (the
 * reasons and the measure are in migration 002): the 32 ASCII punctuation characters as code-point ranges.
 */
export const PUNCTUATION_CLASS = '[!-/:-@[-`{-~]';
/** Between the title's and the body's words: a position no query can match, as FTS5 phrases never span columns. */
const COLUMN_GAP = `''' '':1'::tsvector`;

export const searchTableOf = (source: SearchSource): DocumentSpec['index'] => specs[source].index;

/** SQLite: the FTS5 table's column names, in order. */
export const sqliteColumns = (source: SearchSource): string => specs[source].columns.map((c) => c.name).join(', ');

/** SQLite: the texts of `row`'s FTS5 columns, cut to their bounds (substr counts characters, as left() does). */
export const sqliteTexts = (source: SearchSource, row: string): string =>
  specs[source].columns.map((c) => `substr(coalesce(${row}.${c.column}, ''), 1, ${c.limit})`).join(', ');

/** PostgreSQL: `row`'s weighted tsvector. */
export const postgresDocument = (source: SearchSource, row: string): string =>
  specs[source].columns
    .map(
      (c) =>
        `setweight(to_tsvector('hearth_search', regexp_replace(left(coalesce(${row}.${c.column}, ''), ${c.limit}), '${PUNCTUATION_CLASS}', ' ', 'g')), '${c.weight}')`,
    )
    .join(` || ${COLUMN_GAP} || `);
