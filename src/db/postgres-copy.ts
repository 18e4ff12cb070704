// PostgreSQL COPY for bulk writes: rows streamed in COPY's text format on the transaction's own connection.
import { once } from 'node:events';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

type Row = Record<string, unknown>;

const SPECIAL = /[\\\n\r\t]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A string in COPY's text format: backslash, newline, carriage return and tab escaped. */
function escapeText(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c] as string) : text;
}

/**
 * One value in COPY's text format, as `pg` would bind it as a parameter: null as `\N`, booleans as t/f, JSON
 * objects as their text, buffers as bytea hex. Arrays are refused: `pg` binds them as PostgreSQL arrays, which
 * no column written in bulk holds.
 */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      return escapeText(value);
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 't' : 'f';
    default:
      if (value instanceof Date) return value.toISOString();
      if (Buffer.isBuffer(value)) return `\\\\x${value.toString('hex')}`;
      if (Array.isArray(value)) throw new Error('COPY: an array value (bind it as JSON text)');
      return escapeText(JSON.stringify(value));
  }
}

/** Lines of COPY text per write: large enough that a write is one socket write of a few hundred KiB. */
const LINES_PER_WRITE = 512;

/** Streams `rows` (each with every one of `columns`) into `table` with `COPY … FROM STDIN` on `client`. */
export async function copyRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: readonly Row[],
): Promise<void> {
  const quoted = columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(', ');
  const stream = client.query(copyFrom(`copy "${table.replaceAll('"', '""')}" (${quoted}) from stdin`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    for (let c = 0; c < columns.length; c++) {
      if (c > 0) text += '\t';
      text += copyValue(row[columns[c] as string]);
    }
    text += '\n';
    if ((i + 1) % LINES_PER_WRITE === 0) {
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
      text = '';
    }
  }
  stream.end(text);
  await done;
}

/** Transactions whose bulk writes go through COPY, each with the client it runs on. */
const copyClients = new WeakMap<object, pg.ClientBase>();

/** Bulk writes (transfer/batch.ts) in transaction `trx`, which runs on `client`, go through COPY. */
export function writeByCopy(trx: object, client: pg.ClientBase): void {
  copyClients.set(trx, client);
}

/** The client to COPY on for bulk writes in `trx`, if it asked for them (writeByCopy). */
export function copyClientOf(trx: object): pg.ClientBase | undefined {
  return copyClients.get(trx);
}
