// `hearth import`: an NDJSON file (or stdin) into one community, all or nothing, with progress; every run is
// recorded in the store, however it ends (`hearth import history`, import-history.command.ts).
import type { ReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Command } from 'commander';
import { CliError, CliInterrupted } from './cli-error.js';
import type { CliContext } from './context.js';
import { importHistoryCommand } from './import-history.command.js';
import type { ProgressStream } from './progress.js';

export interface ImportStreams {
  stdin: Readable;
  /** Where progress is shown (stderr). */
  progress: ProgressStream;
}

/** Why a file cannot be read, by its error code, as the command says it. */
const fileProblems: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied (the file is not readable by this user)',
  ENOTDIR: 'a part of the path is not a folder',
};

interface ImportFlags {
  community?: string;
  quiet?: boolean;
  dryRun?: boolean;
  ignoreUnknown?: boolean;
}

export function importCommand(program: Command, ctx: CliContext, streams: ImportStreams): void {
  const command = program
    .command('import <file>')
    .description(
      "import an NDJSON file ('-' for stdin); all or nothing, every bad line reported; `import history` lists past runs",
    )
    // Required, but checked here rather than by commander, which would ask it of `import history` too.
    .option('--community <slug>', 'community to import into (required)')
    .option('--quiet', 'no progress, only the summary line')
    .option('--dry-run', 'check the whole file, links included, and write nothing')
    .option('--ignore-unknown', 'drop fields the format does not know instead of refusing the file')
    // Options after `history` are its own (its --community filters, this one's names where to import).
    .enablePositionalOptions()
    .action((file: string, options: ImportFlags) => {
      if (options.community === undefined)
        command.error("error: required option '--community <slug>' not specified", {
          code: 'commander.missingMandatoryOptionValue',
        });
      return importFile(ctx, streams, file, { ...options, community: options.community ?? '' });
    });
  importHistoryCommand(command, ctx);
}

function importFile(
  ctx: CliContext,
  streams: ImportStreams,
  file: string,
  options: ImportFlags & { community: string },
): Promise<void> {
  return ctx.withStore(async (store) => {
    const [
      { createReadStream, statSync },
      { createCommunitiesService },
      { importStream },
      { ImportError },
      { createProgress },
      { importShares },
    ] = await Promise.all([
      import('node:fs'),
      import('../communities/communities.service.js'),
      import('../import/import.service.js'),
      import('../import/problems.js'),
      import('./progress.js'),
      import('../import/import-phases.js'),
    ]);
    const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
    let input: Readable;
    let size: number | null = null;
    try {
      const stat = file === '-' ? null : statSync(file);
      if (stat?.isDirectory())
        throw new CliError(`Cannot import '${file}': it is a folder; give an NDJSON file, or - for stdin.`);
      size = stat ? stat.size : null;
    } catch (error) {
      const why = fileProblems[(error as NodeJS.ErrnoException).code ?? ''];
      if (why) throw new CliError(`Cannot import '${file}': ${why}.`);
      throw error;
    }
    input = file === '-' ? streams.stdin : createReadStream(file);
    // The share of the file read so far tells how much of the reading is done; stdin has no size. The phases after
    // it (checks, indexes, fragments, search) count in the time left by their measured shares.
    const fraction = () => (size ? Math.min(1, (input as ReadStream).bytesRead / size) : null);
    const progress = createProgress({
      label: 'import',
      quiet: options.quiet === true,
      stream: streams.progress,
      phases: importShares(store.dialect.name, { dryRun: options.dryRun === true }),
    });
    const started = performance.now();
    const ignored: string[] = [];
    // Ctrl-C stops the import where it is: its one transaction rolls back, so the store is as it was, and the run is
    // recorded as interrupted before the command says so and exits 130. A second Ctrl-C exits at once (the
    // transaction never commits either way; the run then goes unrecorded).
    const interrupted = `Import interrupted: nothing was written to '${community.slug}' (an import is all or nothing).`;
    const stop = new AbortController();
    const onInterrupt = () => {
      progress.stop();
      if (!stop.signal.aborted) return stop.abort(new Error('interrupted (Ctrl-C)'));
      ctx.io.err(interrupted);
      process.exit(130);
    };
    process.on('SIGINT', onInterrupt);
    try {
      const summary = await importStream(store, community.id, input, {
        clock: ctx.clock,
        origin: file === '-' ? 'stdin' : resolve(file),
        signal: stop.signal,
        dryRun: options.dryRun === true,
        ignoreUnknown: options.ignoreUnknown === true,
        onIgnored: (line, field) => ignored.push(`'${field}' (line ${line})`),
        onProgress: (phase, records) => progress.update(records, phase === 'reading' ? fraction() : null, phase),
      });
      progress.finish(summary.records);
      if (ignored.length > 0) {
        ctx.io.err(
          `Ignored ${ignored.length} unknown field${ignored.length === 1 ? '' : 's'}: ${ignored.slice(0, 10).join(', ')}${ignored.length > 10 ? ', …' : ''}.`,
        );
      }
      const seconds = (performance.now() - started) / 1000;
      const parts = Object.entries(summary)
        .filter(([k, v]) => k !== 'records' && v > 0)
        .map(([k, v]) => `${v} ${k}`);
      const detail = parts.length ? `: ${parts.join(', ')}` : '';
      ctx.io.out(
        options.dryRun
          ? `Checked ${summary.records} records${detail}; all would import into '${community.slug}' (dry run: nothing was written).`
          : `Imported ${summary.records} records into '${community.slug}'${detail} in ${seconds.toFixed(1)} s (${Math.round(summary.records / seconds)} records/s).`,
      );
    } catch (error) {
      progress.stop();
      if (stop.signal.aborted) {
        // The import no longer reads it; stdin left open by its writer would keep the process alive.
        input.destroy();
        throw new CliInterrupted(interrupted);
      }
      if (error instanceof ImportError)
        throw new CliError(`${options.dryRun ? 'Dry run' : 'Import failed, nothing was kept'}: ${error.message}`);
      throw error;
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  });
}
