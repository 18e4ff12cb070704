// `hearth luma pull --community SLUG`: the Luma calendar's events into a community; the API key from LUMA_API_KEY
// or `--api-key-file`, never from the command line's arguments.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import type { LumaPullResult } from '../luma/luma-pull.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

interface PullFlags {
  community: string;
  apiKeyFile?: string;
}

/** The key of `--api-key-file`, else LUMA_API_KEY; a command without either is refused before any request. */
export function lumaApiKey(file: string | undefined, config: Config): string {
  if (file !== undefined) {
    let key: string;
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new CliError(
        `Cannot read the Luma API key from '${file}': ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
      );
    }
    if (key === '') throw new CliError(`The file '${file}' holds no Luma API key.`);
    return key;
  }
  if (config.lumaApiKey !== null) return config.lumaApiKey;
  throw new CliError('No Luma API key: set LUMA_API_KEY, or give --api-key-file with a file holding it.');
}

export const describePull = (slug: string, result: LumaPullResult): string =>
  `Pulled ${result.events} Luma events into '${slug}': ${result.created} new, ${result.updated} changed, ${result.unchanged} unchanged; ${result.hostsAdded} hosts added as members.`;

/** One pull into the community `slug`, as the command and `serve`'s schedule run it. */
export async function runLumaPull(
  store: Store,
  config: Config,
  clock: Clock,
  options: { slug: string; apiKey: string; progress?: (line: string) => void; signal?: AbortSignal },
): Promise<LumaPullResult> {
  const [
    { createCommunitiesService },
    { createWriteRunner },
    { refreshFragments },
    { createLumaClient },
    { pullLuma },
  ] = await Promise.all([
    import('../communities/communities.service.js'),
    import('../writes/write-runner.js'),
    import('../rendering/fragment-refresh.js'),
    import('../luma/luma-api.js'),
    import('../luma/luma-pull.js'),
  ]);
  const community = await createCommunitiesService(store.db, store.dialect).get(options.slug);
  const client = createLumaClient({
    baseUrl: config.lumaApiUrl,
    apiKey: options.apiKey,
    ...(options.signal ? { signal: options.signal } : {}),
    onRetry: (reason, ms) => options.progress?.(`  ${reason}; retrying in ${(ms / 1000).toFixed(1)} s`),
  });
  return pullLuma({
    writes: createWriteRunner(store.db, clock, refreshFragments),
    client,
    communityId: community.id,
    ...(options.progress ? { progress: options.progress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export function lumaCommand(program: Command, ctx: CliContext): void {
  const luma = program.command('luma').description("events from a Luma calendar (its API; a Luma Plus calendar's key)");
  luma
    .command('pull')
    .description(
      'copy every event of the Luma calendar the key belongs to into a community, with its hosts; all or nothing, and a second pull updates what changed',
    )
    .requiredOption('--community <slug>', 'community to copy into')
    .option('--api-key-file <path>', 'a file holding the Luma API key; else LUMA_API_KEY')
    .action((flags: PullFlags) =>
      ctx.withStore(async (store, config) => {
        const apiKey = lumaApiKey(flags.apiKeyFile, config);
        const { LumaError } = await import('../luma/luma-api.js');
        try {
          const result = await runLumaPull(store, config, ctx.clock, {
            slug: flags.community,
            apiKey,
            progress: (line) => ctx.io.err(line),
          });
          ctx.io.out(describePull(flags.community, result));
        } catch (error) {
          if (error instanceof LumaError) throw new CliError(error.message);
          throw error;
        }
      }),
    );
}
