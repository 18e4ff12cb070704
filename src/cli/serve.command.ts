// `hearth serve`: applies pending migrations, then serves the API until a signal stops it.
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import { CliError } from './cli-error.js';
import { parseDuration } from './token.command.js';
import type { CliContext, Output } from './context.js';

export interface ListenOptions {
  port?: string;
  host?: string;
  slackSyncEvery?: string;
}

interface ServeOptions extends ListenOptions {
  lumaPullEvery?: string;
}

/** The config with --port and --host applied over PORT and HOST. */
export async function listenConfig(ctx: CliContext, options: ListenOptions): Promise<Config> {
  const config = await ctx.config();
  const port =
    options.port === undefined ? config.port : /^\d{1,5}$/.test(options.port) ? Number(options.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`Invalid --port '${options.port}': a number from 0 to 65535.`);
  const slackSyncEvery = options.slackSyncEvery ?? config.slackSyncEvery;
  if (slackSyncEvery !== null) parseDuration(slackSyncEvery);
  return Object.freeze({ ...config, port, host: options.host ?? config.host, slackSyncEvery });
}

/** Listens, says where on stderr, and resolves once a signal has closed the server. */
export async function serve(
  io: Output,
  config: Config,
  options: {
    store?: Store;
    metrics?: Metrics;
    clock?: Clock;
    parentPid?: number;
    /** Lines to print after the address, before a stop may close the store they read (startServer's onStarted). */
    onStarted?(app: FastifyInstance): Promise<void>;
  } = {},
): Promise<FastifyInstance> {
  const { startServer, PortInUseError } = await import('../server.js');
  try {
    return await startServer(config, {
      ...options,
      onStarted: async (app) => {
        const address = app.server.address();
        const where =
          typeof address === 'object' && address ? `http://${config.host}:${address.port}` : String(address);
        io.err(
          `Hearth serving ${where}/admin/v0 (store: ${app.store.dialect.name}); docs at ${where}/docs, metrics at ${where}/metrics.`,
        );
        await options.onStarted?.(app);
      },
    });
  } catch (error) {
    if (error instanceof PortInUseError) throw new CliError(error.message);
    throw error;
  }
}

/** The community, key and period of `serve`'s Luma pull, or a refusal naming what is missing. */
async function lumaSchedule(config: Config, every: string) {
  const { parseDuration } = await import('./token.command.js');
  const everyMs = parseDuration(every);
  if (config.lumaCommunity === null)
    throw new CliError('A Luma pull schedule needs LUMA_COMMUNITY, the slug of the community to pull into.');
  const { lumaApiKey } = await import('./luma.command.js');
  return { everyMs, slug: config.lumaCommunity, apiKey: lumaApiKey(undefined, config) };
}

/** Resolves when the server has closed (after a signal). */
export const closed = (app: FastifyInstance) =>
  new Promise<void>((resolve) => app.server.once('close', () => resolve()));

export function serveCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('apply pending migrations and serve the API')
    .option('--port <port>', 'port to listen on (PORT)')
    .option('--host <host>', 'address to listen on (HOST)')
    .option(
      '--slack-sync-every <duration>',
      'run `hearth slack sync` for every connected community this often, e.g. 1h (SLACK_SYNC_EVERY)',
    )
    .option('--luma-pull-every <duration>', 'pull LUMA_COMMUNITY from Luma this often, e.g. 15m (LUMA_PULL_EVERY)')
    .action(async (options: ServeOptions) => {
      const config = await listenConfig(ctx, options);
      const every = options.lumaPullEvery ?? config.lumaPullEvery;
      // Checked before the server starts: a schedule that cannot run is refused, not logged every 15 minutes.
      const luma = every == null ? null : await lumaSchedule(config, every);
      const app = await serve(ctx.io, config, { clock: ctx.clock, parentPid: ctx.launcherPid });
      if (luma) {
        const { startLumaSchedule } = await import('./luma-schedule.js');
        const schedule = startLumaSchedule(app, config, ctx.clock, luma);
        app.server.once('close', () => void schedule.stop());
      }
      await closed(app);
    });
}
