// `hearth slack import`: a Slack workspace export (ZIP) through the import path of `hearth import`: all or nothing,
// with its progress and summary.
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import type { ProgressStream } from './progress.js';

interface ImportFlags {
  community: string;
  dryRun?: boolean;
  quiet?: boolean;
  includePrivate?: boolean;
  channels?: string;
  domain?: string;
}

export const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function slackImportCommand(slack: Command, ctx: CliContext, progressStream: ProgressStream): void {
  slack
    .command('import <export>')
    .description('import a Slack workspace export (ZIP): channels, threads and people; all or nothing')
    .requiredOption('--community <slug>', 'community to import into')
    .option('--channels <names>', 'only these channels (names or ids, comma-separated)')
    .option('--include-private', 'private channels too (groups.json); direct messages are never imported')
    .option('--domain <name>', "the workspace's domain (acme for acme.slack.com), for messages' permalinks")
    .option('--dry-run', 'read and check the whole export, and write nothing')
    .option('--quiet', 'no progress, only the summary')
    .action((file: string, flags: ImportFlags) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { importSlackExport }, { SlackExportError }, { SlackChannelsError }] =
          await Promise.all([
            import('../communities/communities.service.js'),
            import('../slack/export-import.service.js'),
            import('../slack/export-zip.js'),
            import('../slack/slack-source.js'),
          ]);
        const [{ ImportError }, { createProgress }, { importCounts, slackLines }] = await Promise.all([
          import('../import/problems.js'),
          import('./progress.js'),
          import('./slack-summary.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(flags.community);
        const progress = createProgress({ label: 'slack import', quiet: flags.quiet === true, stream: progressStream });
        const started = performance.now();
        try {
          const { imported, slack } = await importSlackExport(store, community.id, file, {
            clock: ctx.clock,
            dryRun: flags.dryRun === true,
            includePrivate: flags.includePrivate === true,
            channels: list(flags.channels),
            domain: flags.domain ?? null,
            onProgress: (phase, records) => progress.update(records, null, phase),
          });
          progress.finish(imported.records);
          const seconds = (performance.now() - started) / 1000;
          const detail = importCounts(imported);
          ctx.io.out(
            flags.dryRun
              ? `Checked ${imported.records} records${detail}; all would import into '${community.slug}' (dry run: nothing was written).`
              : `Imported ${imported.records} records into '${community.slug}'${detail} in ${seconds.toFixed(1)} s (${Math.round(imported.records / seconds)} records/s).`,
          );
          for (const line of slackLines(slack)) ctx.io.out(line);
        } catch (error) {
          progress.stop();
          if (error instanceof SlackExportError || error instanceof SlackChannelsError)
            throw new CliError(`Cannot import '${file}': ${error.message}`);
          if (error instanceof ImportError)
            throw new CliError(`${flags.dryRun ? 'Dry run' : 'Import failed, nothing was kept'}: ${error.message}`);
          throw error;
        }
      }),
    );
}
