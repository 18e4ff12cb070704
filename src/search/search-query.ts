// Search text as users type it, parsed to a safe AST (groups of clauses); each store renders it in its own syntax.

/**
 * One required (or, when `negated`, excluded) term: the words of a phrase, in order. A plain
 * word is a one-word phrase. Words are lowercase, NFC, and hold only letters, digits and
 * combining marks (`\p{L}\p{N}\p{M}`, at least one letter or digit), so they can never carry
 * an operator of either query language.
 */
export interface Clause {
  readonly words: readonly string[];
  readonly negated: boolean;
}

/**
 * A disjunction (`OR`) of groups; a group is a conjunction of clauses with at least one
 * positive clause. No groups: the query matches nothing.
 */
export interface SearchQuery {
  readonly groups: readonly (readonly Clause[])[];
}

/** A run of letters, digits and combining marks: a word as the parser and the highlighter see it. */
export const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
export const SPACE = /\s/u;

function wordsOf(text: string): string[] {
  const words: string[] = [];
  // Tokenizing after normalizing and lowercasing guarantees the words keep only safe characters.
  for (const match of text.normalize('NFC').toLowerCase().matchAll(WORD_RUN)) {
    if (HAS_LETTER_OR_DIGIT.test(match[0])) words.push(match[0]);
  }
  return words;
}

type Token = 'OR' | Clause;

function lex(q: string): Token[] {
  const tokens: Token[] = [];
  const push = (words: string[], negated: boolean): void => {
    if (words.length > 0) tokens.push({ words, negated });
  };
  let negateNext = false;
  let atTermStart = true;
  let i = 0;
  while (i < q.length) {
    const ch = q.charAt(i);
    if (SPACE.test(ch)) {
      negateNext = false;
      atTermStart = true;
      i += 1;
    } else if (ch === '"') {
      const close = q.indexOf('"', i + 1);
      const end = close === -1 ? q.length : close;
      push(wordsOf(q.slice(i + 1, end)), negateNext);
      negateNext = false;
      atTermStart = false;
      i = end + 1;
    } else if (ch === '-' && atTermStart) {
      negateNext = true;
      atTermStart = false;
      i += 1;
    } else {
      let end = i;
      while (end < q.length && q.charAt(end) !== '"' && !SPACE.test(q.charAt(end))) end += 1;
      const chunk = q.slice(i, end);
      if (chunk === 'OR' && !negateNext) tokens.push('OR');
      else push(wordsOf(chunk), negateNext);
      negateNext = false;
      atTermStart = false;
      i = end;
    }
  }
  return tokens;
}

/**
 * Parses web-search syntax. Terms are separated by whitespace; every term is required.
 * - `"a phrase"`: words in order; an unclosed quote runs to the end of the text.
 * - A whitespace-delimited chunk whose words are joined by other characters (`e-mail`,
 *   `don't`, `col:word`) is a phrase of those words; every character other than a letter,
 *   digit or combining mark only separates words and is never an operator.
 * - `-term` / `-"a phrase"` (a `-` starting a chunk) excludes the term.
 * - `OR` (uppercase, standing alone) separates alternatives; `or` is a plain word.
 * Groups with no positive clause are dropped (they would match everything but the
 * excluded, which no one means); duplicate clauses in a group are dropped, and so is a group
 * of the same clauses as an earlier one (`a b OR b a` is `a b`: the same matches, ranked as
 * the query without the repeat, as `a a` is ranked as `a`).
 */
export function parseSearchQuery(q: string): SearchQuery {
  const groups: Clause[][] = [];
  const groupKeys = new Set<string>();
  let current: Clause[] = [];
  const seen = new Set<string>();
  const close = (): void => {
    const key = [...seen].sort().join('\n');
    if (current.some((clause) => !clause.negated) && !groupKeys.has(key)) {
      groups.push(current);
      groupKeys.add(key);
    }
    current = [];
    seen.clear();
  };
  for (const token of lex(q)) {
    if (token === 'OR') {
      close();
      continue;
    }
    const key = `${token.negated ? '-' : '+'}${token.words.join(' ')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    current.push(token);
  }
  close();
  return { groups };
}

export const isEmptyQuery = (query: SearchQuery): boolean => query.groups.length === 0;

/** A group's clauses, required ones apart from exclusions. */
export function ordered(group: readonly Clause[]): { positive: Clause[]; negative: Clause[] } {
  return { positive: group.filter((c) => !c.negated), negative: group.filter((c) => c.negated) };
}

/** The distinct words of positive clauses, in query order. */
export function positiveWords(query: SearchQuery): string[] {
  const words = new Set<string>();
  for (const group of query.groups) {
    for (const clause of group) if (!clause.negated) for (const word of clause.words) words.add(word);
  }
  return [...words];
}
