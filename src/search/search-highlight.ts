// Highlighting a search hit: the text HTML-escaped, the words matching the query marked, long texts cut to a snippet.
import escapeHtml from 'escape-html';
import { positiveWords, SPACE, WORD_RUN, type SearchQuery } from './search-query.js';
import { stem } from './search-stem.js';

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
