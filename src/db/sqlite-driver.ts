// better-sqlite3, the SQLite driver, as built for the running Node: version 13 (Node-API: one prebuilt binary for
// every Node from 22, nothing compiled at install) on Node 22 and later, where 12 aborts the process on Node 24
// (docs/production.md); version 12 (compiled for the running Node at install) on Node 20, which 13 does not run on.
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

/** The package that holds the driver for this Node: an alias of better-sqlite3 13, or better-sqlite3 12 itself. */
export const driverPackage = major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

function load(): typeof SQLite {
  try {
    return require(driverPackage) as typeof SQLite;
  } catch (error) {
    if (driverPackage === 'better-sqlite3' && (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND')
      throw new Error(
        `On Node ${process.version} Hearth needs better-sqlite3 12, compiled at install, and it is missing (it needs Python, make and a C++ compiler to build). Use Node 22 or later, which needs no compiler, or install those and run npm install again.`,
      );
    if (driverPackage === 'better-sqlite3-napi' && (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND')
      throw new Error(
        `On Node ${process.version} Hearth needs better-sqlite3 13, which npm skips when it installs on Node 20. Run npm install again on this Node.`,
      );
    throw error;
  }
}

/** The driver's Database class (better-sqlite3's API, the same in 12 and 13). */
export const SqliteDriver = load();

export type SqliteConnection = SQLite.Database;
export type SqliteStatement = SQLite.Statement;
