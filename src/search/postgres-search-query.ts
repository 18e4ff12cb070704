// The PostgreSQL tsquery syntax of a parsed query, for to_tsquery('hearth_search', $1).
import { isEmptyQuery, ordered, positiveWords, type Clause, type SearchQuery } from './search-query.js';

export interface Tsquery {
  /** Text for `to_tsquery('hearth_search', $1)`, always passed as a bound parameter. */
  readonly text: string;
  /** The distinct words of positive clauses, in query order. */
  readonly words: readonly string[];
}

function tsOperand(clause: Clause): string {
  const operand = clause.words.length === 1 ? clause.words.join('') : `(${clause.words.join(' <-> ')})`;
  return clause.negated ? `!${operand}` : operand;
}

/**
 * PostgreSQL tsquery text such as `(a & (b <-> c) & !d) | (e)`; null when the query matches
 * nothing. It holds only query words, spaces, `&`, `|`, `!`, `<->` and parentheses, so
 * `to_tsquery('hearth_search', $1)` (a configuration that unaccents and stems English) parses
 * it without error; words that are stop words or yield no lexeme are dropped by PostgreSQL.
 */
export function toTsquery(query: SearchQuery): Tsquery | null {
  if (isEmptyQuery(query)) return null;
  const groupText = (group: readonly Clause[]): string => {
    const { positive, negative } = ordered(group);
    return [...positive, ...negative].map(tsOperand).join(' & ');
  };
  const text =
    query.groups.length === 1
      ? query.groups.map(groupText).join('')
      : query.groups.map((group) => `(${groupText(group)})`).join(' | ');
  return { text, words: positiveWords(query) };
}
