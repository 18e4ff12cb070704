// SQLite: an import into a new store writes its pages once, under a rollback journal, instead of twice (the
// write-ahead log, then the checkpoint copying it into the file); any other store keeps its write-ahead log.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * A store file at most this large before the import counts as new. A rollback journal saves the pages the
 * transaction changes as they were before it, so for a new store it holds little more than the schema, while
 * the write-ahead log holds every page the import writes, to be copied into the file again at the checkpoint
 * (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export const NEW_STORE_BYTES = 64 * 1024 * 1024;

/** Puts the connection back in the mode it had before the import. */
export type RestoreJournal = () => Promise<void>;

/** The connection's journal mode, after asking for `mode` when one is given. */
const journalMode = async (connection: Kysely<Database>, mode?: 'delete' | 'wal'): Promise<string> =>
  (
    await sql<{ journal_mode: string }>`pragma ${sql.raw(mode ? `journal_mode = ${mode}` : 'journal_mode')}`.execute(
      connection,
    )
  ).rows[0]?.journal_mode ?? '';

const setting = async (connection: Kysely<Database>, name: string): Promise<number> =>
  Number(Object.values((await sql.raw(`pragma ${name}`).execute(connection)).rows[0] ?? {})[0] ?? 0);

/**
 * Before the import's transaction, on its connection: a rollback journal, synced at every commit (`synchronous =
 * FULL`, which that journal needs to be as safe as the write-ahead log is at NORMAL), when the store is new, its
 * file in write-ahead-log mode and no other connection has it open. SQLite refuses to leave that mode while another
 * connection (a server, another command) has the store open; that refusal, asked without waiting, keeps the
 * write-ahead log, so readers are never locked out of a store they are reading. A store opened during the import
 * is refused at once, saying why (openSqlite). A killed import leaves a hot journal, which the next connection to
 * open the store rolls back before anything reads it.
 */
export async function journalForImport(connection: Kysely<Database>): Promise<RestoreJournal> {
  const keep: RestoreJournal = async () => {};
  if ((await journalMode(connection)) !== 'wal') return keep;
  const bytes = (await setting(connection, 'page_count')) * (await setting(connection, 'page_size'));
  if (bytes > NEW_STORE_BYTES) return keep;
  const busyTimeout = await setting(connection, 'busy_timeout');
  const synchronous = await setting(connection, 'synchronous');
  await sql.raw('pragma busy_timeout = 0').execute(connection);
  let mode: string;
  try {
    mode = await journalMode(connection, 'delete').catch(() => 'wal');
  } finally {
    await sql.raw(`pragma busy_timeout = ${busyTimeout}`).execute(connection);
  }
  if (mode !== 'delete') return keep;
  await sql.raw('pragma synchronous = full').execute(connection);
  return async () => {
    await sql.raw(`pragma synchronous = ${synchronous}`).execute(connection);
    // Another connection that opened the store meanwhile and still reads it keeps it in this mode for now; the
    // next connection to open it (every one sets the write-ahead log) puts it back.
    await journalMode(connection, 'wal').catch(() => undefined);
  };
}
