// PostgreSQL COPY for bulk writes: rows streamed in COPY's text format on the transaction's own connection.
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

/** COPY text a transaction may have sent that the server has not written yet (see CopySession.copy). */
const IN_FLIGHT_CHARACTERS = 16 << 20;

type Query = (...args: unknown[]) => unknown;

/**
 * A transaction writing by COPY: its client runs one statement at a time, in the order they were given, whether
 * COPYs sent without waiting for them or the caller's other statements (Kysely's, which now queue behind them).
 */
export class CopySession {
  /** Settles once every statement given so far has run. */
  private tail: Promise<unknown> = Promise.resolve();
  /** COPYs sent and not yet written, and the characters of their text. */
  private readonly pending = new Set<Promise<unknown>>();
  private characters = 0;
  /** The first COPY that failed: the statements after it failed only because the transaction had. */
  failure: unknown = null;
  private readonly query: Query;

  constructor(private readonly client: pg.ClientBase) {
    const target = client as unknown as { query: Query };
    this.query = target.query;
    target.query = (...args: unknown[]) => this.next(() => this.query.apply(client, args) as Promise<unknown>);
  }

  /** Runs `statement` once every statement before it has. */
  private next<T>(statement: () => Promise<T>): Promise<T> {
    const result = this.tail.then(statement);
    this.tail = result.catch(() => {});
    return result;
  }

  /** Sends a COPY whose text is written to `stream`; waits only while too much text is still unwritten. */
  async copy(stream: ReturnType<typeof copyFrom>, characters: number): Promise<void> {
    if (this.failure) throw this.failure;
    const done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
    });
    const written = this.next(() => {
      this.query.call(this.client, stream);
      return done;
    }).then(
      () => {},
      (error: unknown) => {
        this.failure ??= error;
      },
    );
    this.characters += characters;
    this.pending.add(written);
    void written.finally(() => {
      this.characters -= characters;
      this.pending.delete(written);
    });
    while (this.characters > IN_FLIGHT_CHARACTERS && this.pending.size > 0) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** Waits until every statement given has run; throws the first COPY that failed. */
  async written(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }

  /** Once every statement given has run (failed or not), gives the client back its own `query`. */
  async end(): Promise<void> {
    await this.tail;
    (this.client as unknown as { query: Query }).query = this.query;
  }
}

/** Transactions whose bulk writes go through COPY, each with its session. */
const sessions = new WeakMap<object, CopySession>();

/** Streams `rows` (each with every one of `columns`) into `table` with `COPY … FROM STDIN` (see CopySession.copy). */
async function copyRows(
  session: CopySession,
  table: string,
  columns: readonly string[],
  rows: readonly Row[],
): Promise<void> {
  const quoted = columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(', ');
  // The stream holds what is written to it until the server asks for it.
  const stream = copyFrom(`copy "${table.replaceAll('"', '""')}" (${quoted}) from stdin`);
  let characters = 0;
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    for (let c = 0; c < columns.length; c++) {
      if (c > 0) text += '\t';
      text += copyValue(row[columns[c] as string]);
    }
    text += '\n';
    if ((i + 1) % LINES_PER_WRITE === 0) {
      stream.write(text);
      characters += text.length;
      text = '';
    }
  }
  stream.end(text);
  await session.copy(stream, characters + text.length);
}

/**
 * Bulk writes (db/batch.ts) in transaction `trx`, which runs on `client`, go through COPY, and return once
 * their rows are sent: the caller prepares its next rows while the server writes these. The session's `written`
 * must be awaited before the transaction commits (it throws a COPY that failed), and its `end` before the client
 * goes back to its pool, commit or not.
 */
export function writeByCopy(trx: object, client: pg.ClientBase): CopySession {
  const session = new CopySession(client);
  sessions.set(trx, session);
  return session;
}

/** Writes `rows` into `table` by COPY in transaction `trx`, which asked for it (writeByCopy). */
export async function copyInto(
  trx: object,
  table: string,
  columns: readonly string[],
  rows: readonly Row[],
): Promise<void> {
  const session = sessions.get(trx);
  if (!session) throw new Error(`COPY into ${table}: the transaction did not ask for COPY`);
  await copyRows(session, table, columns, rows);
}

/** Whether transaction `trx` writes by COPY. */
export const copies = (trx: object): boolean => sessions.has(trx);
