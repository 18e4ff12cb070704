// An online copy of a SQLite store through SQLite's backup API (better-sqlite3): consistent while servers read and
// write it, whatever its WAL holds.
import { SqliteDriver } from './sqlite-driver.js';

/** The most pages better-sqlite3 lets one step copy. */
const ALL_PAGES = 0x7fffffff;

/** Copies the store at `storePath` into the (empty) file at `target`. */
export async function backupSqlite(storePath: string, target: string): Promise<void> {
  const source = new SqliteDriver(storePath, { fileMustExist: true });
  try {
    // A writer holding the store for a moment (a server's change) is waited for, as every connection does.
    source.pragma('busy_timeout = 5000');
    // Every page in one step, so one read transaction: in WAL mode writers go on meanwhile, and the copy is the store
    // as of its start. In steps of 100 pages (better-sqlite3's default) each write another process commits would
    // restart the copy, and a store written without pause might never be copied.
    await source.backup(target, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}
