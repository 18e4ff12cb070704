// One transaction whose failure is reported by its own cause, not by a rollback that found nothing to roll back.
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * `work` in a transaction; when it fails, its own error is thrown. SQLite rolls a transaction back by itself on some
 * failures (a full disk, an I/O error, an interrupted statement); Kysely's rollback then fails with "cannot rollback -
 * no transaction is active", and that error, not the cause, would reach the user.
 */
export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const failed: unknown[] = [];
  try {
    return await db.transaction().execute(async (trx) => {
      try {
        return await work(trx);
      } catch (error) {
        failed.push(error);
        throw error;
      }
    });
  } catch (error) {
    throw failed.length > 0 ? failed[0] : error;
  }
}
