// `hearth start` (what `npm start` runs, as one process so that signals reach it): fills the demo community
// when it is empty, serves, then prints the demo token and a curl line.
import type { Command } from 'commander';
import type { Community } from '../communities/communities.repository.js';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { CliContext } from './context.js';
import { fillWithProgress, printDemoToken } from './demo.command.js';
import { openMigratedStore } from './open-store.js';
import type { ProgressStream } from './progress.js';
import { closed, listenConfig, serve, type ListenOptions } from './serve.command.js';

/**
 * The lines giving the console's address and a one-time sign-in link for the demo's operator (made on the first
 * start): made before the banner is printed, so that no request's log line lands in the middle of it.
 */
async function consoleSignInLines(ctx: CliContext, store: Store, config: Config): Promise<string[]> {
  const [{ createOperatorsService }, { consoleBase, signInUrl }] = await Promise.all([
    import('../operators/operators.service.js'),
    import('../operators/sign-in-url.js'),
  ]);
  const operators = createOperatorsService(store.db, ctx.clock);
  const email = 'demo@example.com';
  const known = (await operators.list()).some((o) => o.email === email);
  const link = known ? await operators.link(email) : (await operators.create(email, ['demo'])).link;
  return [
    '',
    `Console: ${consoleBase(config)}`,
    `Sign in as ${email} (once, within 15 minutes): ${signInUrl(config, link)}`,
    `A new link later: hearth operator link --email ${email}`,
  ];
}

export function startCommand(program: Command, ctx: CliContext, progress: ProgressStream): void {
  program
    .command('start')
    .description('fill the demo community if it is empty, serve, and print its token and a curl line')
    .option('--port <port>', 'port to listen on (PORT)')
    .option('--host <host>', 'address to listen on (HOST)')
    .option('--quiet', 'no progress while filling the demo')
    .action(async (options: ListenOptions & { quiet?: boolean }) => {
      const config = await listenConfig(ctx, options);
      const [{ createCommunitiesService }, { holdings }] = await Promise.all([
        import('../communities/communities.service.js'),
        import('../demo/demo.service.js'),
      ]);
      const store = await openMigratedStore(config.databaseUrl, config.databasePoolSize);
      let community: Community;
      try {
        community = await createCommunitiesService(store.db, store.dialect, ctx.clock).ensure('demo', 'Demo community');
        const { tokens = 0, ...kinds } = await holdings(store, community.id);
        const records = Object.values(kinds).reduce((a, b) => a + b, 0);
        if (records === 0) {
          // The demo's import is recorded in the store, where the server's metrics read it.
          await fillWithProgress(ctx, progress, store, community, {
            community: 'demo',
            seed: '1',
            quiet: options.quiet,
          });
        } else {
          ctx.io.out(`Demo community 'demo' holds ${records} records and ${tokens} token(s); not filled again.`);
        }
      } catch (error) {
        await store.close();
        throw error;
      }
      // Listening comes before the token and the curl line: a port in use stops Hearth before it points anyone there.
      // They are printed as the last of the start: a Ctrl-C meanwhile drains once they are out, with the store open.
      // From here the server owns the store, and closes it also when it fails to start.
      const app = await serve(ctx.io, config, {
        store,
        clock: ctx.clock,
        parentPid: ctx.launcherPid,
        onStarted: async () => {
          const signIn = config.console ? await consoleSignInLines(ctx, store, config) : [];
          // printDemoToken prints its lines after its last await: the sign-in lines follow them in the same turn.
          await printDemoToken(ctx, store, community, config);
          for (const line of signIn) ctx.io.out(line);
        },
      });
      await closed(app);
    });
}
