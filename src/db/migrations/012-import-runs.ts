// One row per import run (the command line's, a pull's, the demo's, a connector's): when, into which community,
// from where, how many records, how long and how it ended. A refused run's rows roll back; its record does not.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

export function importRunsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('import_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
        // `import`, `pull`, `demo`, or a connector's name: text, so that a new source needs no migration.
        .addColumn('source', 'text', (c) => c.notNull())
        // The file or the address read (never credentials); null when the records were handed over in memory.
        .addColumn('origin', 'text')
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts, (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        // completed, refused, interrupted or failed.
        .addColumn('outcome', 'text', (c) => c.notNull())
        // Records read from the input, whatever the outcome; the kinds below count what a completed run wrote.
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('feeds', 'integer', (c) => c.notNull())
        .addColumn('profiles', 'integer', (c) => c.notNull())
        .addColumn('tags', 'integer', (c) => c.notNull())
        .addColumn('calendar_events', 'integer', (c) => c.notNull())
        .addColumn('posts', 'integer', (c) => c.notNull())
        .addColumn('comments', 'integer', (c) => c.notNull())
        // Why a run that did not complete ended, in a sentence or two.
        .addColumn('error', 'text')
        .execute();
      // `hearth import history`, newest first: of one community, and of all.
      await db.schema
        .createIndex('import_runs_community_started')
        .on('import_runs')
        .columns(['community_id', 'started_at'])
        .execute();
      await db.schema.createIndex('import_runs_started').on('import_runs').columns(['started_at']).execute();
    },
  };
}
