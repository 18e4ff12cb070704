// What differs between the embedded SQLite store and PostgreSQL, behind one small interface.
// Everything else (services, repositories, migrations) is written once for both.
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export type ColumnKind = 'timestamp' | 'json' | 'bool' | 'bytes';

export interface StoreDialect {
  readonly name: 'sqlite' | 'postgres';
  /** SQL column type for each portable kind. */
  columnType(kind: ColumnKind): 'text' | 'integer' | 'boolean' | 'jsonb' | 'timestamptz' | 'blob' | 'bytea';
  /** True when `SELECT … FOR UPDATE SKIP LOCKED` exists (PostgreSQL); SQLite's one writer serialises instead. */
  readonly rowLocks: boolean;
  /** The collation that compares text byte by byte (code point order), the same on both stores. */
  readonly bytewiseCollation: 'BINARY' | '"C"';
  /** True when `error` is a violation of a unique or primary-key constraint. */
  isUniqueViolation(error: unknown): boolean;
  /** True when `error` means the database cannot be reached right now. */
  isUnavailable(error: unknown): boolean;
  /** Cheap round trip that proves the store answers. */
  ping(db: Kysely<Database>): Promise<void>;
}
