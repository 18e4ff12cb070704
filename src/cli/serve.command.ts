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
  options: { store?: Store; metrics?: Metrics; clock?: Clock; parentPid?: number } = {},
): Promise<FastifyInstance> {
  const { startServer, PortInUseError } = await import('../server.js');
  let app: FastifyInstance;
  try {
    app = await startServer(config, options);
  } catch (error) {
    if (error instanceof PortInUseError) throw new CliError(error.message);
    throw error;
  }
  const address = app.server.address();
  const where = typeof address === 'object' && address ? `http://${config.host}:${address.port}` : String(address);
  io.err(
    `Hearth serving ${where}/admin/v0 (store: ${app.store.dialect.name}); docs at ${where}/docs, metrics at ${where}/metrics.`,
  );
  return app;
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
    .action(async (options: ListenOptions) => {
      const app = await serve(ctx.io, await listenConfig(ctx, options), {
        clock: ctx.clock,
        parentPid: ctx.launcherPid,
      });
      await closed(app);
    });
}
