// Opens the store named by DATABASE_URL: a SQLite file path (or `:memory:`) or a `postgres://` URL.
import type { Kysely } from 'kysely';
import { defaultConfig, unsupportedScheme } from '../config.js';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
import type { HotStatements } from './hot-statements.js';
import { openPostgres, postgresDialect, type PostgresTimeouts } from './postgres-dialect.js';
import { openSqlite, sqliteDialect } from './sqlite-dialect.js';
import type { ModeChange } from './sqlite-file-modes.js';

/** A connection pool's state, read when metrics are scraped. */
export interface PoolStats {
  /** Connections the pool may open. */
  size: number;
  inUse: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  /** The read path's prepared statements, on the same connection (SQLite) or pool (PostgreSQL). */
  readonly hot: HotStatements;
  /** The pool's state; null for SQLite, which has one connection and no pool. */
  poolStats(): PoolStats | null;
  /** Files and folder of a SQLite store that this open found wider than its owner's alone and tightened (to log). */
  readonly tightened: readonly ModeChange[];
  close(): Promise<void>;
}

function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The SQLite file a DATABASE_URL names (a path, or `sqlite:` and a path), or null for a PostgreSQL URL. */
export function sqlitePath(databaseUrl: string): string | null {
  return isPostgresUrl(databaseUrl) ? null : databaseUrl.replace(/^sqlite:(\/\/)?/, '');
}

/** The server's deadlines by default; the command line passes longer ones for its large transactions. */
const serverTimeouts: PostgresTimeouts = {
  queryMs: defaultConfig.databaseQueryTimeoutMs,
  acquireMs: defaultConfig.databaseAcquireTimeoutMs,
};

/** For the command line and migrations: imports and index builds may run long, so no query deadline. */
export const batchTimeouts: PostgresTimeouts = { queryMs: null, acquireMs: 30_000 };

export function openStore(databaseUrl: string, poolSize = 10, timeouts: PostgresTimeouts = serverTimeouts): Store {
  const scheme = unsupportedScheme(databaseUrl);
  if (scheme)
    throw new Error(`Unsupported DATABASE_URL scheme '${scheme}': use a SQLite file path or a postgres:// URL.`);
  const path = sqlitePath(databaseUrl);
  if (path === null) {
    const { db, hot, pool } = openPostgres(databaseUrl, poolSize, timeouts);
    const poolStats = () => ({
      size: poolSize,
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return { db, hot, dialect: postgresDialect, poolStats, tightened: [], close: () => db.destroy() };
  }
  const { db, hot, tightened } = openSqlite(path);
  return { db, hot, dialect: sqliteDialect, poolStats: () => null, tightened, close: () => db.destroy() };
}
