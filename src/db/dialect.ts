// What differs between the embedded SQLite store and PostgreSQL, behind one small interface.
// Everything else (services, repositories) is written once for both; migrations keep their own frozen column types.
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export interface StoreDialect {
  readonly name: 'sqlite' | 'postgres';
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
