// `hearth pull --from URL --token T --community SLUG`: copies another server's feeds, events and posts here.
import { join } from 'node:path';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

interface PullFlags {
  from: string;
  token: string;
  community: string;
  state?: string;
  restart?: boolean;
  perPage: string;
  retries: string;
}

function integer(text: string, name: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new CliError(`Invalid ${name} '${text}': an integer from ${min} to ${max}.`);
  return value;
}

export function pullCommand(program: Command, ctx: CliContext): void {
  program
    .command('pull')
    .description(
      'copy feeds, events and posts from another server of this API (the hosted product or a Hearth) into a community; resumable, all or nothing',
    )
    .requiredOption('--from <url>', 'base URL of the server to copy from')
    .requiredOption('--token <token>', 'a token of that server with the read scope (either field-name mode)')
    .requiredOption('--community <slug>', 'community here to copy into')
    .option('--state <dir>', 'where an unfinished pull keeps its place and the pages fetched (default: data/pull/SLUG)')
    .option('--restart', 'discard an unfinished pull and start over')
    .option('--per-page <n>', 'records per request, 1 to 100', '100')
    .option('--retries <n>', 'retries of a request that failed with 429, 5xx or a network error', '5')
    .action((flags: PullFlags) =>
      ctx.withStore(async (store) => {
        const perPage = integer(flags.perPage, '--per-page', 1, 100);
        const retries = integer(flags.retries, '--retries', 0, 100);
        // Loaded here, not at the top: `hearth --help` must not load the import and its schemas.
        const [{ createCommunitiesService }, { pullFiles }, { pull }, { createRemote, PullError }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../pull/pull-state.js'),
          import('../pull/pull.service.js'),
          import('../pull/remote-api.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(flags.community);
        try {
          const remote = createRemote({
            from: flags.from,
            token: flags.token,
            retries,
            onRetry: (reason, ms) => ctx.io.err(`  ${reason}; retrying in ${(ms / 1000).toFixed(1)} s`),
          });
          const result = await pull({
            store,
            remote,
            files: pullFiles(flags.state ?? join('data', 'pull', community.slug)),
            community,
            perPage,
            restart: flags.restart === true,
            clock: ctx.clock,
            progress: (line) => ctx.io.err(line),
          });
          const { records, ...kinds } = result.imported;
          const parts = Object.entries(kinds)
            .filter(([, n]) => n > 0)
            .map(([kind, n]) => `${n} ${kind}`);
          ctx.io.out(
            `Pulled ${records} records from ${remote.root} into '${community.slug}'${parts.length ? `: ${parts.join(', ')}` : ''}.`,
          );
        } catch (error) {
          if (error instanceof PullError) throw new CliError(error.message);
          throw error;
        }
      }),
    );
}
