// `hearth import history [--community SLUG] [--limit N] [--json]`: the import runs the store recorded, newest
// first, whichever process ran them (the command line, a pull, the demo, a connector) and however they ended.
import type { Command } from 'commander';
import { toWire } from '../lib/timestamps.js';
import { parseLimit } from './audit.command.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

const COLUMNS = ['started_at', 'community', 'source', 'outcome', 'records', 'duration_ms', 'origin', 'error'];

export function importHistoryCommand(importCommand: Command, ctx: CliContext): void {
  importCommand
    .command('history')
    .description(
      `recent import runs, newest first (tab-separated, with a header line: ${COLUMNS.join(', ')}; records read)`,
    )
    .option('--community <slug>', 'only the runs into this community')
    .option('--limit <n>', 'at most this many runs', '50')
    .option('--json', 'print a JSON array instead, with the records written by kind')
    .action((options: { community?: string; limit: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const limit = parseLimit(options.limit);
        const [{ createCommunitiesService }, { listImportRuns, IMPORTED_KINDS }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../import-runs/import-runs.repository.js'),
        ]);
        // `hearth import --community X history` names the community before the subcommand: taken as well.
        const slug = options.community ?? (importCommand.opts() as { community?: string }).community;
        const community = slug === undefined ? null : await createCommunitiesService(store.db, store.dialect).get(slug);
        const runs = (await listImportRuns(store.db, { communityId: community?.id ?? null, limit })).map((run) => ({
          id: run.id,
          community: run.community,
          source: run.source,
          origin: run.origin,
          outcome: run.outcome,
          // In the API's wire form, zone included, as every command's --json.
          started_at: toWire(run.started_at),
          finished_at: toWire(run.finished_at),
          duration_ms: Number(run.duration_ms),
          records: Number(run.records),
          written: Object.fromEntries(IMPORTED_KINDS.map((kind) => [kind, Number(run[kind])])),
          error: run.error,
        }));
        if (options.json) return printJson(ctx.io, runs);
        // Stdout stays a header and one line per run for scripts; the hint for an empty history goes to stderr.
        if (runs.length === 0)
          ctx.io.err(
            community ? `No import runs recorded for '${community.slug}' yet.` : 'No import runs recorded yet.',
          );
        ctx.io.out(COLUMNS.join('\t'));
        for (const run of runs) {
          ctx.io.out(
            [
              run.started_at,
              run.community,
              run.source,
              run.outcome,
              run.records,
              run.duration_ms,
              run.origin ?? '-',
              run.error ?? '-',
            ].join('\t'),
          );
        }
      }),
    );
}
