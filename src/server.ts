// Runs Hearth as a server: migrate, listen, and shut down gracefully on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { openStore } from './db/store.js';

export async function startServer(config: Config): Promise<FastifyInstance> {
  const store = openStore(config.databaseUrl, config.databasePoolSize);
  await migrateToLatest(store.db, store.dialect);
  const app = await buildApp(config, { store });
  app.addHook('onClose', () => store.close());

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  return app;
}
