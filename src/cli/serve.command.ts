// `hearth serve`: applies pending migrations, then serves the API.
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { startServer } from '../server.js';
import { CliError, type CliContext } from './context.js';

export function serveCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('apply pending migrations and serve the API')
    .option('--port <port>', 'port to listen on (PORT)')
    .option('--host <host>', 'address to listen on (HOST)')
    .action(async (options: { port?: string; host?: string }) => {
      const port = options.port === undefined ? ctx.config.port : Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`Invalid --port '${options.port}'.`);
      const config = loadConfig({}, { ...ctx.config, port, host: options.host ?? ctx.config.host });
      const app = await startServer(config);
      const address = app.server.address();
      const where = typeof address === 'object' && address ? `http://${config.host}:${address.port}` : String(address);
      ctx.io.err(`Hearth serving ${where}/admin/v0 (store: ${app.store.dialect.name}).`);
      // Keep the command running until a signal closes the server.
      await new Promise<void>((resolve) => app.server.once('close', () => resolve()));
    });
}
