// PostgreSQL: a pooled `pg` connection, UTC sessions, and timestamps read back in the stored text form.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;

/** `2026-03-08 10:00:00.12+00` (PostgreSQL, UTC session) -> `2026-03-08 10:00:00.120000`. */
export function storedFromPostgres(text: string): string {
  const body = text.replace(/\+00(:00)?$/, '');
  const [whole = body, fraction = ''] = body.split('.');
  return `${whole}.${fraction.padEnd(6, '0')}`;
}

const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P03', '08006', '08001', '08003', '53300']);

export const postgresDialect: StoreDialect = {
  name: 'postgres',
  columnType: (kind) => (kind === 'bool' ? 'boolean' : kind === 'json' ? 'jsonb' : 'timestamptz'),
  isUniqueViolation: (error) => error instanceof Error && 'code' in error && error.code === '23505',
  isUnavailable: (error) =>
    error instanceof Error &&
    (('code' in error && unavailableCodes.has(String(error.code))) ||
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
        error.message,
      )),
  ping: async (db) => {
    await sql`select 1`.execute(db);
  },
};

export function openPostgres(url: string, poolSize: number): Kysely<Database> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === TIMESTAMPTZ_OID) return storedFromPostgres;
      if (oid === INT8_OID) return Number;
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    options: '-c TimeZone=UTC -c statement_timeout=15000',
    types: types as pg.CustomTypesConfig,
  });
  // A client losing its connection (the server restarting, say) must not crash the process: the pool
  // drops that client and the next query opens a new one. The server's FATAL notice and the socket's
  // end can both surface as 'error' events, so each client gets a listener of its own as well.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
