// The SQLite FTS5 syntax of a parsed query: the MATCH expression and the title candidates' expression.
import { isEmptyQuery, ordered, type Clause, type SearchQuery } from './search-query.js';

const fts5Literal = (clause: Clause): string => `"${clause.words.join(' ').replaceAll('"', '""')}"`;

/** `head` without the group's exclusions; `head` is one phrase or a parenthesized expression. */
function fts5Excluding(head: string, negative: readonly Clause[]): string {
  if (negative.length === 0) return head;
  // One NOT over an OR of the exclusions: a chain of binary NOTs would hit FTS5's depth limit of 256.
  const excluded = negative.map(fts5Literal).join(' OR ');
  return `${head} NOT ${negative.length > 1 ? `(${excluded})` : excluded}`;
}

function fts5Group(group: readonly Clause[]): string {
  const { positive, negative } = ordered(group);
  const all = positive.map(fts5Literal).join(' AND ');
  return fts5Excluding(positive.length > 1 && negative.length > 0 ? `(${all})` : all, negative);
}

const fts5Groups = (query: SearchQuery, render: (group: readonly Clause[]) => string): string =>
  query.groups.length === 1
    ? query.groups.map(render).join('')
    : query.groups.map((group) => `(${render(group)})`).join(' OR ');

/**
 * The FTS5 MATCH expression, e.g. `("a" AND "b c") NOT ("d" OR "e")` or `("a") OR ("b")`; null when
 * the query matches nothing. Every term is a quoted string (never a prefix query), which the
 * table's `porter unicode61 remove_diacritics 2` tokenizer stems and unaccents like the text.
 */
export function toFts5Match(query: SearchQuery): string | null {
  return isEmptyQuery(query) ? null : fts5Groups(query, fts5Group);
}

/**
 * An FTS5 MATCH expression for the matches likeliest to rank first: those with one of their group's
 * required terms in `column` (the title), e.g. `"a" AND {title} : ("a")` or
 * `("a" AND "b") AND {title} : ("a" OR "b")`, and, for `OR` queries, those matching every
 * alternative (bm25 adds up the terms, so two body hits can outrank one title hit). Null when the
 * query matches nothing. Every row it matches is a match of `toFts5Match`.
 */
export function toFts5Candidates(query: SearchQuery, column: string): string | null {
  if (isEmptyQuery(query)) return null;
  const filter = `{${column}} :`;
  const titled = fts5Groups(query, (group) => {
    const { positive, negative } = ordered(group);
    const literals = positive.map(fts5Literal);
    const head =
      literals.length === 1
        ? `${filter} ${literals.join('')}`
        : `(${literals.join(' AND ')}) AND ${filter} (${literals.join(' OR ')})`;
    return fts5Excluding(negative.length > 0 ? `(${head})` : head, negative);
  });
  if (query.groups.length === 1) return titled;
  return `(${titled}) OR (${query.groups.map((group) => `(${fts5Group(group)})`).join(' AND ')})`;
}
