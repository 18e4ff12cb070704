// Opens the store named by DATABASE_URL: a SQLite file path (or `:memory:`) or a `postgres://` URL.
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
import { openPostgres, postgresDialect } from './postgres-dialect.js';
import { openSqlite, sqliteDialect } from './sqlite-dialect.js';

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  close(): Promise<void>;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export function openStore(databaseUrl: string, poolSize = 10): Store {
  const postgres = isPostgresUrl(databaseUrl);
  const path = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  const db = postgres ? openPostgres(databaseUrl, poolSize) : openSqlite(path);
  return { db, dialect: postgres ? postgresDialect : sqliteDialect, close: () => db.destroy() };
}
