// `hearth demo`: fills a community with realistic sample data through the real import path, then prints its
// token (the same one on every run) and a curl line to try it.
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Community } from '../communities/communities.repository.js';
import type { Store } from '../db/store.js';
import type { DemoFill } from '../demo/demo.service.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import type { ProgressStream } from './progress.js';

export interface DemoOptions {
  community: string;
  scale?: string;
  seed: string;
  quiet?: boolean;
}

/** Fills the community, showing progress; the summary lines go to stdout. */
export async function fillWithProgress(
  { io, clock }: Pick<CliContext, 'io' | 'clock'>,
  stream: ProgressStream,
  store: Store,
  community: Community,
  options: DemoOptions,
): Promise<DemoFill> {
  const scale =
    options.scale === undefined ? undefined : /^\d{1,9}$/.test(options.scale) ? Number(options.scale) : Number.NaN;
  if (scale !== undefined && !(scale >= 1))
    throw new CliError(`Invalid --scale '${options.scale}': a positive whole number.`);
  const seed = /^\d{1,9}$/.test(options.seed) ? Number(options.seed) : Number.NaN;
  if (Number.isNaN(seed)) throw new CliError(`Invalid --seed '${options.seed}': a whole number.`);
  const [{ fillDemo }, { createProgress }, { importShares }] = await Promise.all([
    import('../demo/demo.service.js'),
    import('./progress.js'),
    import('../import/import-phases.js'),
  ]);
  const progress = createProgress({
    label: 'demo',
    quiet: options.quiet === true,
    stream,
    phases: importShares(store.dialect.name),
  });
  let fill: DemoFill;
  try {
    fill = await fillDemo(store, community.id, {
      clock,
      scale,
      seed,
      onProgress: (records, fraction, phase) => progress.update(records, fraction, phase),
    });
  } catch (error) {
    progress.stop();
    throw error;
  }
  progress.finish(fill.summary.records);
  const { records, ...kinds } = fill.summary;
  io.out(
    `Demo community '${community.slug}' ready: ${Object.entries(kinds)
      .filter(([, count]) => count > 0)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}.`,
  );
  io.out(
    `Imported ${records} records in ${fill.seconds.toFixed(1)} s (${Math.round(records / fill.seconds)} records/s).`,
  );
  return fill;
}

/** Prints the demo token and a curl line for `config`'s address, or, with no token to show, how to make one. */
export async function printDemoToken(
  { io, clock }: Pick<CliContext, 'io' | 'clock'>,
  store: Store,
  community: Community,
  config: Config,
): Promise<void> {
  const { demoToken, demoTokenFile, holdings } = await import('../demo/demo.service.js');
  const held = await holdings(store, community.id);
  const token = await demoToken(
    store,
    community.id,
    demoTokenFile(config.databaseUrl, store.dialect.name === 'postgres'),
    held['tokens'] ?? 0,
    clock,
  );
  const base = `http://${config.host}:${config.port}/admin/v0`;
  io.out('');
  if (token.secret === null) {
    io.out(
      `The community already has ${token.tokens} token(s); secrets are shown only once, and PostgreSQL has no file to keep one in.`,
    );
    io.out(`A new one: hearth token create --community ${community.slug} --scopes read,members:write`);
    io.out('Try:');
    io.out(`  curl -H "Authorization: Bearer $TOKEN" "${base}/calendar_events?time_filter=upcoming&per_page=2"`);
    return;
  }
  io.out(`Token (scopes read, members:write${token.reused ? '; the same as last time' : ''}): ${token.secret}`);
  io.out('Try:');
  io.out(`  curl -H "Authorization: Bearer ${token.secret}" "${base}/calendar_events?time_filter=upcoming&per_page=2"`);
}

export function demoCommand(program: Command, ctx: CliContext, progress: ProgressStream): void {
  program
    .command('demo')
    .description('fill a community (default: demo) with sample data and print its token')
    .option('--community <slug>', 'community to fill', 'demo')
    .option('--scale <posts>', 'generate a corpus of this many posts (with events, comments and members in proportion)')
    .option('--seed <n>', 'random seed', '1')
    .option('--quiet', 'no progress, only the summary')
    .action((options: DemoOptions) =>
      ctx.withStore(async (store, config) => {
        const { createCommunitiesService } = await import('../communities/communities.service.js');
        const community = await createCommunitiesService(store.db, store.dialect, ctx.clock).ensure(
          options.community,
          'Demo community',
        );
        await fillWithProgress(ctx, progress, store, community, options);
        await printDemoToken(ctx, store, community, config);
      }),
    );
}
