// Search text as users type it: parsed to a safe AST, rendered as SQLite FTS5 MATCH and PostgreSQL tsquery text, and highlighted.
import escapeHtml from 'escape-html';

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

const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

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
 * excluded, which no one means); duplicate clauses in a group are dropped.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const groups: Clause[][] = [];
  let current: Clause[] = [];
  const close = (): void => {
    if (current.some((clause) => !clause.negated)) groups.push(current);
    current = [];
  };
  const seen = new Set<string>();
  for (const token of lex(q)) {
    if (token === 'OR') {
      close();
      seen.clear();
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

function ordered(group: readonly Clause[]): { positive: Clause[]; negative: Clause[] } {
  return { positive: group.filter((c) => !c.negated), negative: group.filter((c) => c.negated) };
}

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
  query.groups.length === 1 ? query.groups.map(render).join('') : query.groups.map((group) => `(${render(group)})`).join(' OR ');

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

function positiveWords(query: SearchQuery): string[] {
  const words = new Set<string>();
  for (const group of query.groups) {
    for (const clause of group) if (!clause.negated) for (const word of clause.words) words.add(word);
  }
  return [...words];
}

// ---- Stemming (an approximation of the indexes' stemmers, used only for highlighting) ----

/** Lowercase with diacritics removed: how both indexes compare letters. */
export const foldWord = (word: string): string => word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

function isVowelAt(w: string, i: number): boolean {
  const c = w.charAt(i);
  if ('aeiou'.includes(c)) return true;
  return c === 'y' && i > 0 && !isVowelAt(w, i - 1);
}

function measure(w: string): number {
  let m = 0;
  for (let i = 1; i < w.length; i += 1) if (!isVowelAt(w, i) && isVowelAt(w, i - 1)) m += 1;
  return m;
}

const hasVowel = (w: string): boolean => [...w].some((_, i) => isVowelAt(w, i));
const endsCvc = (w: string): boolean => {
  const n = w.length;
  return n >= 3 && !isVowelAt(w, n - 3) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 1) && !'wxy'.includes(w.charAt(n - 1));
};

function afterSuffixRemoved(w: string): string {
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  const last = w.charAt(w.length - 1);
  if (w.length >= 2 && last === w.charAt(w.length - 2) && !isVowelAt(w, w.length - 1) && !'lsz'.includes(last)) {
    return w.slice(0, -1);
  }
  return measure(w) === 1 && endsCvc(w) ? `${w}e` : w;
}

/**
 * Folds a word and strips English inflections: Porter's step 1 (-s, -es, -ies, -ed, -ing,
 * with its doubling and -e rules, `running` → `run`, `hoping` → `hope`, -y → -i) plus -ly.
 * It approximates the index stemmers (FTS5 porter, PostgreSQL Snowball English): a word the
 * index matches by a deeper rule (`connection` for `connect`) is not highlighted.
 */
export function stem(word: string): string {
  let w = foldWord(word);
  // No English word is longer than 40 letters; the bound also keeps isVowelAt's recursion shallow.
  if (w.length <= 2 || w.length > 40 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    for (const suffix of ['ed', 'ing']) {
      const base = w.slice(0, -suffix.length);
      if (w.endsWith(suffix) && hasVowel(base)) {
        w = afterSuffixRemoved(base);
        break;
      }
    }
  }
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  const adverbBase = w.slice(0, -2);
  if (w.endsWith('li') && adverbBase.length >= 3 && measure(adverbBase) > 0) w = adverbBase;
  return w;
}

// ---- Highlighting ----

export interface HighlightOptions {
  /** Texts longer than this (in UTF-16 units of the source) become a snippet this long. */
  readonly maxLength?: number;
}

interface Range {
  readonly start: number;
  readonly end: number;
}


function findHits(text: string, query: SearchQuery): Range[] {
  const stems = new Set(positiveWords(query).map(stem));
  const hits: Range[] = [];
  if (stems.size === 0) return hits;
  for (const match of text.matchAll(WORD_RUN)) {
    if (stems.has(stem(match[0]))) hits.push({ start: match.index, end: match.index + match[0].length });
  }
  return hits;
}

const isSpaceAt = (text: string, i: number): boolean => SPACE.test(text.charAt(i));

// True when cutting before index i splits no surrogate pair, combining sequence or ZWJ sequence.
function isCharacterBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  if (text.charCodeAt(i - 1) === 0x200d) return false;
  const code = text.codePointAt(i) ?? 0;
  if (code >= 0xdc00 && code <= 0xdfff) return false;
  return !/[\p{M}\u200d]/u.test(String.fromCodePoint(code));
}

// How far a cut may move to fall between words rather than inside one.
const SNAP = 30;

// Start of the window, at most `limit` (the first hit): after a space near `pos` if any.
function cutStart(text: string, pos: number, limit: number): number {
  if (pos === 0 || isSpaceAt(text, pos - 1)) return pos;
  for (let k = pos; k < Math.min(limit, pos + SNAP); k += 1) if (isSpaceAt(text, k)) return k + 1;
  let k = pos;
  while (k < limit && !isCharacterBoundary(text, k)) k += 1;
  return k;
}

// End of the window, after `floor` (the first hit's end): at a space near `pos` if any, never inside a hit.
function cutEnd(text: string, pos: number, floor: number, hits: readonly Range[]): number {
  if (pos >= text.length || isSpaceAt(text, pos)) return Math.min(pos, text.length);
  for (let k = pos - 1; k > Math.max(floor, pos - SNAP); k -= 1) if (isSpaceAt(text, k)) return k;
  let k = pos;
  while (k > floor) {
    const inside = hits.find((hit) => hit.start < k && k < hit.end);
    if (inside) k = inside.start;
    else if (isCharacterBoundary(text, k)) return k;
    else k -= 1;
  }
  // Here k === floor: the first hit's end, or 0 when there is no hit and no boundary before `pos`.
  if (k > 0) return k;
  k = pos;
  while (k < text.length && !isCharacterBoundary(text, k)) k += 1;
  return k;
}

// Cutting the source (before escaping) between characters and outside hits means no hit, entity or
// surrogate pair is ever cut in half.
function snippetWindow(text: string, hits: readonly Range[], maxLength: number): Range {
  if (text.length <= maxLength) return { start: 0, end: text.length };
  const first = hits[0] ?? { start: 0, end: 0 };
  let start = Math.max(0, Math.min(first.start - Math.floor(maxLength / 3), text.length - maxLength));
  start = cutStart(text, start, first.start);
  let end = cutEnd(text, Math.max(first.end, start + maxLength), Math.max(first.end, start), hits);
  while (start > 0 && start < end && isSpaceAt(text, start)) start += 1;
  while (end < text.length && end > start && isSpaceAt(text, end - 1)) end -= 1;
  return { start, end };
}

/**
 * The text HTML-escaped (`& < > " '`) with `<mark>`…`</mark>` around each word whose stem
 * equals the stem of a positive query word (phrase words are marked one by one), comparing
 * case- and accent-insensitively. A text longer than `maxLength` (default 300) becomes a
 * window around the first hit, cut at whitespace, with `…` at each cut end.
 */
export function highlight(text: string, query: SearchQuery, options: HighlightOptions = {}): string {
  const hits = findHits(text, query);
  const window = snippetWindow(text, hits, options.maxLength ?? 300);
  let out = window.start > 0 ? '…' : '';
  let at = window.start;
  for (const hit of hits) {
    if (hit.start < window.start || hit.end > window.end) continue;
    out += `${escapeHtml(text.slice(at, hit.start))}<mark>${escapeHtml(text.slice(hit.start, hit.end))}</mark>`;
    at = hit.end;
  }
  out += escapeHtml(text.slice(at, window.end));
  return window.end < text.length ? `${out}…` : out;
}
