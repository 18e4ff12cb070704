// A community's FTS5 index read for the impact postings' build in a few long strings instead of a row per document
// or per hit: the rows' objects (hundreds of thousands per frequent word at a million posts) were most of an import's
// peak memory, and grouping the hits in SQLite sorted them, where they come in document order already.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** Numbers by docid over [from, from + range): a typed array when the range is dense, else a map. */
export class DocNumbers {
  private readonly dense: Uint32Array | null;
  private readonly sparse = new Map<number, number>();

  constructor(range: number, count: number) {
    // Docids are consecutive within an import; a range far wider than the documents it holds is kept in a map.
    this.dense = range <= 4 * count + (1 << 20) ? new Uint32Array(range) : null;
  }

  get(offset: number): number {
    return this.dense ? (this.dense[offset] ?? 0) : (this.sparse.get(offset) ?? 0);
  }

  set(offset: number, value: number): void {
    if (this.dense) this.dense[offset] = value;
    else if (value === 0) this.sparse.delete(offset);
    else this.sparse.set(offset, value);
  }
}

/** The community's documents in [from, to]: how many, and how wide a range their docids span. */
export async function docRange(
  db: Kysely<Database>,
  from: number,
  to: number,
): Promise<{ count: number; range: number }> {
  const { rows } = await sql<{ n: number; last: number | null }>`
    select count(*) as n, max(id) as last from post_search_docsize where id between ${from} and ${to}`.execute(db);
  const row = rows[0];
  return { count: Number(row?.n ?? 0), range: row?.last == null ? 0 : Number(row.last) - from + 1 };
}

const hexDigit = (code: number): number => (code <= 57 ? code - 48 : code - 55);

/**
 * Each document's length in words over its columns (its `%_docsize` row: SQLite varints, big-endian 7-bit groups, a
 * 9th byte of 8 bits, as fts5Varints reads them), read as one string of `offset:HEX` entries.
 */
export async function readLengths(db: Kysely<Database>, from: number, to: number, lengths: DocNumbers): Promise<void> {
  const { rows } = await sql<{ sizes: string | null }>`
    select group_concat(cast(id - ${from} as integer) || ':' || hex(sz), ',') as sizes from post_search_docsize
    where id between ${from} and ${to}`.execute(db);
  const text = rows[0]?.sizes ?? '';
  let i = 0;
  while (i < text.length) {
    let offset = 0;
    for (let code = text.charCodeAt(i); code !== 58; code = text.charCodeAt(++i)) offset = offset * 10 + code - 48;
    i++;
    let length = 0;
    let value = 0;
    let k = 0;
    while (i < text.length && text.charCodeAt(i) !== 44) {
      const byte = hexDigit(text.charCodeAt(i)) * 16 + hexDigit(text.charCodeAt(i + 1));
      i += 2;
      if (k === 8) {
        length += value * 256 + byte;
        value = 0;
        k = 0;
        continue;
      }
      value = value * 128 + (byte & 127);
      k++;
      if ((byte & 128) === 0) {
        length += value;
        value = 0;
        k = 0;
      }
    }
    if (k > 0) length += value;
    lengths.set(offset, length);
    i++;
  }
}

/**
 * The documents holding `term` and each one's weighted hits (a title hit counts 10, a body hit 1), summed from the
 * index's instances read as one string: each hit its document's offset, then `+` (title) or `,` (body). `freqs`
 * is left holding the sums of the documents returned (the caller clears them).
 */
export async function readHits(
  db: Kysely<Database>,
  term: string,
  from: number,
  to: number,
  freqs: DocNumbers,
): Promise<number[]> {
  const { rows } = await sql<{ hits: string | null }>`
    select group_concat(cast(doc - ${from} as integer) || iif(col = 'title', '+', ','), '') as hits from post_search_instances
    where term = ${term} and doc between ${from} and ${to}`.execute(db);
  const text = rows[0]?.hits ?? '';
  const docs: number[] = [];
  let offset = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48) {
      offset = offset * 10 + code - 48;
      continue;
    }
    const before = freqs.get(offset);
    if (before === 0) docs.push(offset);
    freqs.set(offset, before + (code === 43 ? 10 : 1));
    offset = 0;
  }
  return docs;
}
