// `hearth slack sync`: the community's Slack history through the Web API with its connection's bot token,
// resumable, written in one transaction, converging on the ids of `hearth slack import`.
import { join } from 'node:path';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { list } from './slack-import.command.js';

interface SyncFlags {
  community: string;
  channels?: string;
  since?: string;
  state?: string;
  restart?: boolean;
  pageSize: string;
  retries: string;
  rereadDays: string;
  quiet?: boolean;
}

function integer(text: string, name: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new CliError(`Invalid ${name} '${text}': an integer from ${min} to ${max}.`);
  return value;
}

export function slackSyncCommand(slack: Command, ctx: CliContext): void {
  slack
    .command('sync')
    .description(
      "read a community's Slack history through the Web API (after `hearth slack connect`); resumable, all or nothing",
    )
    .requiredOption('--community <slug>', 'the community')
    .option('--channels <names>', "only these channels (names or ids); else the connection's channels")
    .option('--since <date>', 'only messages after this date (ISO 8601); else those newer than the newest held')
    .option(
      '--state <dir>',
      'where an unfinished sync keeps its place and the pages fetched (default: data/slack/SLUG)',
    )
    .option('--restart', 'discard an unfinished sync and start over')
    .option(
      '--reread-days <n>',
      'days before the newest message held to read again, for replies to their threads (0 to 3650)',
      '30',
    )
    .option('--page-size <n>', 'messages per request, 1 to 999', '200')
    .option('--retries <n>', 'retries of a call that failed or was rate limited', '5')
    .option('--quiet', 'no progress, only the summary')
    .action((flags: SyncFlags) =>
      ctx.withStore(async (store, config) => {
        const pageSize = integer(flags.pageSize, '--page-size', 1, 999);
        const retries = integer(flags.retries, '--retries', 0, 100);
        const rereadDays = integer(flags.rereadDays, '--reread-days', 0, 3650);
        const sinceMs = flags.since === undefined ? null : Date.parse(flags.since);
        if (sinceMs !== null && Number.isNaN(sinceMs))
          throw new CliError(`Invalid --since '${flags.since}': an ISO 8601 date or date-time.`);
        const [
          { createCommunitiesService },
          { createSlackConnectionsService },
          { syncSlack },
          { syncFiles, SlackSyncError },
        ] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../slack/slack-connections.service.js'),
          import('../slack/sync.service.js'),
          import('../slack/sync-state.js'),
        ]);
        const [{ slackApi, SlackApiError }, { SlackChannelsError }, { ImportError }, { importCounts, slackLines }] =
          await Promise.all([
            import('../slack/web-api.js'),
            import('../slack/slack-source.js'),
            import('../import/problems.js'),
            import('./slack-summary.js'),
          ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(flags.community);
        const connections = createSlackConnectionsService(store.db, ctx.clock);
        const connection = await connections.get(community.id);
        if (!connection)
          throw new CliError(
            `'${community.slug}' has no Slack connection: run hearth slack connect --community ${community.slug} first.`,
          );
        const files = syncFiles(flags.state ?? join('data', 'slack', community.slug));
        const say = flags.quiet ? () => {} : (line: string) => ctx.io.err(line);
        const api = slackApi({
          token: connection.botToken,
          apiUrl: config.slackApiUrl,
          retries,
          onRateLimited: (seconds, method) => say(`  ${method}: rate limited; waiting ${seconds} s as Slack asks`),
        });
        try {
          const result = await syncSlack({
            store,
            api,
            files,
            community,
            channels: list(flags.channels) ?? connection.channels,
            sinceMs,
            rereadDays,
            restart: flags.restart === true,
            pageSize,
            clock: ctx.clock,
            progress: say,
          });
          await connections.markSynced(community.id, result.domain);
          const { imported, slack } = result;
          ctx.io.out(`Synced ${imported.records} records into '${community.slug}'${importCounts(imported)}.`);
          for (const line of slackLines(slack)) ctx.io.out(line);
        } catch (error) {
          if (error instanceof SlackApiError)
            throw new CliError(
              `Sync stopped: ${error.message}. Nothing was written; the pages fetched stay in ${files.dir}, and running the sync again resumes there.`,
            );
          if (error instanceof SlackSyncError || error instanceof SlackChannelsError) throw new CliError(error.message);
          if (error instanceof ImportError)
            throw new CliError(
              `Import failed, nothing was kept: ${error.message}. The pages fetched stay in ${files.dir}.`,
            );
          throw error;
        }
      }),
    );
}
