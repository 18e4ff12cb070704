// A second reader of the SQLite file on its own thread: runs the read-only statements it is handed (half of a ranking).
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

export type ReaderRequest = { id: number; sql: string; parameters: readonly unknown[] };
export type ReaderReply = { id: number; rows: unknown[] } | { id: number; error: string };

const { path, cacheKib } = workerData as { path: string; cacheKib: number };
const database = new SQLite(path, { fileMustExist: true });
database.pragma('busy_timeout = 5000');
database.pragma(`cache_size = -${cacheKib}`);
// Nothing it runs may write; SQLite refuses any statement that would.
database.pragma('query_only = 1');
const statements = new Map<string, SQLite.Statement>();

parentPort?.on('message', ({ id, sql, parameters }: ReaderRequest) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort?.postMessage({ id, rows: statement.all(...parameters) } satisfies ReaderReply);
  } catch (error) {
    parentPort?.postMessage({ id, error: (error as Error).message } satisfies ReaderReply);
  }
});
