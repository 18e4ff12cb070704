// A window of matches ranked by score alone, put in search's full order (score, then newer first, then id) with the dates of its ties only.
import type { SearchWindow } from './search-index.js';

/** A match as the index ranks it: its document number and its score, lower is better (bm25 in SQLite). */
export interface Scored {
  readonly docid: number;
  readonly score: number;
}

/** What breaks ties between equal scores: newer first, then id descending. */
export interface DocKey {
  readonly docid: number;
  readonly id: string;
  readonly createdAt: string;
}

/**
 * How many more rows than the window's end a ranking reads, so that a run of equal scores crossing
 * the window's end is usually read whole at the first try.
 */
export const TIE_SLACK = 32;

/**
 * Rows ranked by score with every row tied with the `n`th included: `fetch(limit)` returns the
 * `limit` best rows (any of equal scores at its end); reading on while its last row ties with the
 * `n`th proves the run of ties complete without ranking twice in the usual case. Given `ordered(n)`
 * (the first `n` in search's full order, ties broken by the store), a run still open after the first
 * read is answered by it at once instead of read again at twice the length until it closes (a word in
 * every comment of a channel is one run of tens of thousands).
 */
export async function rankedThrough(
  n: number,
  fetch: (limit: number) => Promise<Scored[]>,
  ordered?: (n: number) => Promise<Scored[]>,
): Promise<Scored[]> {
  let limit = n + TIE_SLACK;
  for (;;) {
    const rows = await fetch(limit);
    if (!tieRunOpen(rows, n, limit)) return rows;
    if (ordered) return ordered(n);
    limit *= 2;
  }
}

/** Whether `rows`, the best `limit` by score, end inside the run of equal scores that holds the `n`th. */
function tieRunOpen(rows: readonly Scored[], n: number, limit: number): boolean {
  const boundary = rows[n - 1];
  const last = rows[rows.length - 1];
  return rows.length >= limit && boundary !== undefined && last !== undefined && last.score === boundary.score;
}

const byDateThenId = (a: DocKey, b: DocKey): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * The ids of `window` over `rows` (sorted by score; equal scores in any order, and every row tied
 * with the window's last included) in the full order. Only the rows tied with a row of the window
 * need their dates: `keysOf` reads those, so a page costs its own rows, not every match's.
 */
export async function windowIds(
  rows: readonly Scored[],
  window: SearchWindow,
  keysOf: (docids: number[]) => Promise<DocKey[]>,
): Promise<string[]> {
  const start = window.offset;
  const end = Math.min(rows.length, window.offset + window.limit);
  const first = rows[start];
  const last = rows[end - 1];
  if (first === undefined || last === undefined) return [];
  let from = start;
  while (from > 0 && rows[from - 1]?.score === first.score) from -= 1;
  let to = end;
  while (to < rows.length && rows[to]?.score === last.score) to += 1;
  const span = rows.slice(from, to);
  const keys = new Map((await keysOf(span.map((row) => row.docid))).map((key) => [key.docid, key]));
  const ordered: { score: number; key: DocKey }[] = [];
  // A document gone since it was ranked (deleted meanwhile) is left out, as a page read by id leaves it out.
  for (const row of span) {
    const key = keys.get(row.docid);
    if (key) ordered.push({ score: row.score, key });
  }
  ordered.sort((a, b) => a.score - b.score || byDateThenId(a.key, b.key));
  return ordered.slice(start - from, end - from).map((entry) => entry.key.id);
}
