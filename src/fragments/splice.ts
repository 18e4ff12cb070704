// Answers assembled from fragments: holes filled with embedded fragments, wrapped in the `{success, data}`
// envelope or the page envelope, with an ETag made of the versions that went in (never a hash of the body).
import { createHash } from 'node:crypto';
import { HOLE_BYTE } from './fragment-templates.js';
import type { FragmentRead } from './fragment-reads.js';

export interface Embedded {
  body: Buffer;
  version: number;
}

/** A finished answer: its bytes and their ETag. */
export interface Answer {
  body: Buffer;
  etag: string;
}

const ONE_OPEN = Buffer.from('{"success":true,"data":');
const CLOSE = Buffer.from('}');
const COMMA = Buffer.from(',');
const RECORDS_CLOSE = Buffer.from(']}}');

/**
 * The parts as one Buffer of its own. Buffer.concat would slice answers under 4 KB out of Node's shared 8 KB
 * pool, and a cached slice keeps its whole pool chunk alive: the answer cache would hold about twice what it counts.
 */
function joined(parts: readonly Buffer[]): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  const body = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const part of parts) at += part.copy(body, at);
  return body;
}

/**
 * Each hole of `row` gets the embedded fragment its ref names; parts go to `out`, versions to `versions`.
 * `extra` (more members, `,"name":value`) goes in before the record's closing brace.
 */
function fill(
  row: FragmentRead,
  embedOf: (ref: string) => Embedded,
  out: Buffer[],
  versions: string[],
  extra: Buffer | null = null,
): void {
  versions.push(Number(row.version).toString(36));
  let start = 0;
  if (row.refs !== '')
    for (const ref of row.refs.split(',')) {
      const hole = row.body.indexOf(HOLE_BYTE, start);
      const embedded = embedOf(ref);
      out.push(row.body.subarray(start, hole), embedded.body);
      versions.push(embedded.version.toString(36));
      start = hole + 1;
    }
  if (extra === null) out.push(start === 0 ? row.body : row.body.subarray(start));
  else out.push(row.body.subarray(start, row.body.length - 1), extra, CLOSE);
}

/** `{"success":true,"data":<record>}`; the ETag lists the versions of the record and what it embeds. */
export function oneAnswer(kind: string, row: FragmentRead, embedOf: (ref: string) => Embedded): Answer {
  const parts: Buffer[] = [ONE_OPEN];
  const versions: string[] = [];
  fill(row, embedOf, parts, versions);
  parts.push(CLOSE);
  return { body: joined(parts), etag: `"${kind}${versions.join('.')}"` };
}

export interface PageFacts {
  page: number;
  per_page: number;
  total: number;
}

/**
 * The page envelope of spec 2.1, byte for byte as the response schema writes it. The ETag is a digest of
 * the total and each record's id and versions: short input, so it costs far less than hashing the body.
 * `extras[i]`, when given, adds members at the end of record i (search's highlight); its digest joins the ETag's.
 */
export function pageAnswer(
  facts: PageFacts,
  rows: readonly FragmentRead[],
  embedOf: (ref: string) => Embedded,
  extras: readonly Buffer[] | null = null,
): Answer {
  const totalPages = Math.ceil(facts.total / facts.per_page);
  const head =
    `{"success":true,"data":{"page":${facts.page},"per_page":${facts.per_page},"count":${rows.length},` +
    `"total_records":${facts.total},"total_pages":${totalPages},"has_next":${facts.page + 1 < totalPages},"records":[`;
  const parts: Buffer[] = [Buffer.from(head)];
  const versions: string[] = [String(facts.total)];
  rows.forEach((row, i) => {
    if (i > 0) parts.push(COMMA);
    versions.push(row.id);
    fill(row, embedOf, parts, versions, extras?.[i] ?? null);
  });
  parts.push(RECORDS_CLOSE);
  const hash = createHash('sha1').update(versions.join(' '));
  for (const extra of extras ?? []) hash.update(extra);
  const digest = hash.digest('base64url');
  return { body: joined(parts), etag: `"l${digest}"` };
}
