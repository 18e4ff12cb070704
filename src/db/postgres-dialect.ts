// PostgreSQL: a pooled `pg` connection, UTC sessions, and timestamps read back in the stored text form.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
import type { HotParam, HotStatements } from './hot-statements.js';

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;

/** `2026-03-08 10:00:00.12+00` (PostgreSQL, UTC session) -> `2026-03-08 10:00:00.120000`. */
function storedFromPostgres(text: string): string {
  const body = text.replace(/\+00(:00)?$/, '');
  const [whole = body, fraction = ''] = body.split('.');
  return `${whole}.${fraction.padEnd(6, '0')}`;
}

// 57014: the server cancelled a statement past `statement_timeout`, the server-side twin of the query deadline.
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P03',
  '57014',
  '08006',
  '08001',
  '08003',
  '53300',
  'HEARTH_DB_DEADLINE',
]);

/** How long a query may take, and a request may wait for a pooled connection; `queryMs` null: no deadline. */
export interface PostgresTimeouts {
  queryMs: number | null;
  acquireMs: number;
}

/** A query that outlived its deadline, or one refused because its connection still waits for such a query. */
class DatabaseDeadline extends Error {
  readonly code = 'HEARTH_DB_DEADLINE';
}

type QueryMethod = (...args: unknown[]) => unknown;
type Callback = (error: unknown, result?: unknown) => void;

/**
 * Gives each query of a pooled client a deadline. pg's own `query_timeout` leaves the late query at the
 * head of the connection, so every later query on it would wait out a deadline of its own; here a
 * connection with a late query refuses new ones at once, until the late answer arrives. A frozen server
 * therefore costs one deadline per connection, after which requests fail (503) without waiting.
 * Both forms are covered: Kysely's `query(text, values)` promise, and the `query(config, values, callback)`
 * that `pool.query` makes for the prepared hot statements (which then drops the late connection).
 */
function withDeadline(client: pg.PoolClient, deadlineMs: number): void {
  const target = client as unknown as { query: QueryMethod };
  const query: QueryMethod = target.query.bind(client);
  let late = 0;
  target.query = (...args: unknown[]) => {
    const [first] = args;
    // Cursors and other submittables manage their own reading.
    if (typeof first === 'object' && first !== null && typeof (first as { submit?: unknown }).submit === 'function')
      return query(...args);
    const last = args[args.length - 1];
    const callback = typeof last === 'function' ? (last as Callback) : null;
    const refused = () => new DatabaseDeadline('The database connection still waits for an earlier answer.');
    if (callback) {
      if (late > 0) return void process.nextTick(() => callback(refused()));
      let overdue = false;
      const timer = setTimeout(() => {
        overdue = true;
        late++;
        callback(new DatabaseDeadline(`The database did not answer within ${deadlineMs} ms.`));
      }, deadlineMs);
      return query(...args.slice(0, -1), (error: unknown, result?: unknown) => {
        clearTimeout(timer);
        if (overdue) late--;
        else callback(error, result);
      });
    }
    if (late > 0) return Promise.reject(refused());
    const answer = query(...args) as Promise<unknown>;
    return new Promise((resolve, reject) => {
      let overdue = false;
      const timer = setTimeout(() => {
        overdue = true;
        late++;
        reject(new DatabaseDeadline(`The database did not answer within ${deadlineMs} ms.`));
      }, deadlineMs);
      const settle = (done: () => void) => {
        clearTimeout(timer);
        if (overdue) late--;
        else done();
      };
      answer.then(
        (result) => settle(() => resolve(result)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  };
}

export const postgresDialect: StoreDialect = {
  name: 'postgres',
  rowLocks: true,
  bytewiseCollation: '"C"',
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

/**
 * Hot reads as named prepared statements: each pooled connection parses and plans one once, then every
 * later run is a single Bind/Execute round trip.
 */
function hotStatements(pool: pg.Pool): HotStatements {
  const names = new Map<string, { name: string; text: string }>();
  const prepared = (text: string) => {
    let entry = names.get(text);
    if (!entry) {
      let n = 0;
      entry = { name: `hot_${names.size}`, text: text.replace(/\?/g, () => `$${++n}`) };
      names.set(text, entry);
    }
    return entry;
  };
  return {
    synchronous: false,
    async all<T>(text: string, params: readonly HotParam[]): Promise<T[]> {
      const { name, text: sqlText } = prepared(text);
      const result = await pool.query({ name, text: sqlText, values: params as HotParam[] });
      return result.rows as T[];
    },
    async changeMark(): Promise<number> {
      const result = await pool.query<{ version: number }>({
        name: 'hot_change_mark',
        // Each commit that renders fragments raises its community's counter, so the sum moves with every one of
        // them (and only once committed), while writers of different communities never wait on a shared row.
        text: 'select coalesce(sum(fragment_version), 0) as version from communities',
      });
      return Number(result.rows[0]?.version ?? 0);
    },
  };
}

/** The Kysely instance, the hot statements, and the pool for the metrics (connections in use, idle, waited for). */
export function openPostgres(
  url: string,
  poolSize: number,
  timeouts: PostgresTimeouts,
): { db: Kysely<Database>; hot: HotStatements; pool: pg.Pool } {
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
    // Both the wait for a free connection and the opening of a new one.
    connectionTimeoutMillis: timeouts.acquireMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    // The server gives up on a statement when the client would: no work left running for nobody.
    options: `-c TimeZone=UTC -c statement_timeout=${timeouts.queryMs ?? 0}`,
    types: types as pg.CustomTypesConfig,
  });
  // A client losing its connection (the server restarting, say) must not crash the process: the pool
  // drops that client and the next query opens a new one. The server's FATAL notice and the socket's
  // end can both surface as 'error' events, so each client gets a listener of its own as well.
  pool.on('error', () => {});
  const { queryMs } = timeouts;
  const sessions = new Map<number, pg.PoolClient>();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (queryMs !== null) withDeadline(client, queryMs);
    sessions.set(sessionOf(client), client);
  });
  pool.on('remove', (client) => sessions.delete(sessionOf(client)));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pooledSessions.set(db, sessions);
  return { db, hot: hotStatements(pool), pool };
}

/** The server process of a pooled client's session (`pg` keeps it, its types do not say so). */
const sessionOf = (client: pg.PoolClient): number => (client as unknown as { processID: number }).processID;

/** Each Kysely instance's pooled clients, by the server process of their session. */
const pooledSessions = new WeakMap<Kysely<Database>, Map<number, pg.PoolClient>>();

/**
 * The `pg` client under a transaction of `db`, found by its session's server process, for what Kysely cannot
 * send (COPY); null when `db` is not a pooled PostgreSQL store opened here.
 */
export async function clientOf(db: Kysely<Database>, trx: Kysely<Database>): Promise<pg.PoolClient | null> {
  const sessions = pooledSessions.get(db);
  if (!sessions) return null;
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
  return sessions.get(Number(rows[0]?.pid)) ?? null;
}
