// `hearth backup FILE [--force]`: a copy of the store that only its owner may read (0600), taken while it serves:
// SQLite's online backup, or PostgreSQL's pg_dump.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

export function backupCommand(program: Command, ctx: CliContext): void {
  program
    .command('backup <file>')
    .description(
      "copy the store into FILE (mode 0600) while it serves: a SQLite database, or pg_dump's custom format for PostgreSQL",
    )
    .option('--force', 'replace FILE if it exists')
    .action(async (file: string, options: { force?: boolean }) => {
      const config = await ctx.config();
      const [{ sqlitePath }, { writePrivately }] = await Promise.all([
        import('../db/store.js'),
        import('../lib/private-file.js'),
      ]);
      const store = sqlitePath(config.databaseUrl);
      // Neither kind of backup opens the store through Hearth: a store behind this version (or ahead of it) is
      // copied as it is, which is what to do before `hearth migrate`.
      if (store === null) {
        const { dumpPostgres, PgDumpMissingError } = await import('../db/postgres-dump.js');
        try {
          const size = await writePrivately(file, options.force === true, ({ fd }) =>
            dumpPostgres(config.databaseUrl, fd, ctx.programEnv),
          );
          ctx.io.out(`Backed up the store to ${file} with pg_dump (${size} bytes; restore with pg_restore).`);
        } catch (error) {
          if (!(error instanceof PgDumpMissingError)) throw error;
          throw new CliError(
            'pg_dump is not on PATH: install PostgreSQL\'s client programs (of the server\'s major version or newer), or run it where they are: pg_dump --format=custom --file=FILE "$DATABASE_URL".',
          );
        }
        return;
      }
      if (store === ':memory:')
        throw new CliError('An in-memory store (DATABASE_URL=:memory:) has nothing to back up.');
      const { existsSync } = await import('node:fs');
      if (!existsSync(store)) throw new CliError(`No SQLite store at '${store}' to back up: check DATABASE_URL.`);
      if (resolve(file) === resolve(store)) throw new CliError(`${file} is the store itself: name another file.`);
      const { backupSqlite } = await import('../db/sqlite-backup.js');
      const size = await writePrivately(file, options.force === true, ({ path }) => backupSqlite(store, path));
      ctx.io.out(`Backed up the store to ${file} (${size} bytes).`);
    });
}
