// `hearth operator create|link|list|remove|sessions`: the people who sign in to the console, and their sign-in links.
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

async function services(ctx: CliContext) {
  const [{ createOperatorsService, OperatorError, LINK_LIFETIME_MS }, { signInUrl }] = await Promise.all([
    import('../operators/operators.service.js'),
    import('../operators/sign-in-url.js'),
  ]);
  /** Turns the service's refusals into the command line's own errors. */
  const refusing = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof OperatorError) throw new CliError(error.message);
      throw error;
    }
  };
  return { createOperatorsService, refusing, signInUrl, minutes: LINK_LIFETIME_MS / 60_000, clock: ctx.clock };
}

export function operatorCommand(program: Command, ctx: CliContext): void {
  const operator = program.command('operator').description('manage the people who sign in to the console (/console)');
  operator
    .command('create')
    .description('add an operator and print a one-time sign-in link')
    .requiredOption('--email <address>', "the operator's e-mail address (their name in the console)")
    .option('--community <slug...>', 'communities they may manage (default: all)', [])
    .action((options: { email: string; community: string[] }) =>
      ctx.withStore(async (store, config) => {
        const s = await services(ctx);
        const created = await s.refusing(() =>
          s.createOperatorsService(store.db, s.clock).create(options.email, options.community),
        );
        ctx.io.out(s.signInUrl(config, created.link));
        ctx.io.err(
          `Operator ${options.email.trim().toLowerCase()} added; the link above signs them in once, within ${s.minutes} minutes.`,
        );
      }),
    );
  operator
    .command('link')
    .description('print a new one-time sign-in link for an operator')
    .requiredOption('--email <address>', "the operator's e-mail address")
    .action((options: { email: string }) =>
      ctx.withStore(async (store, config) => {
        const s = await services(ctx);
        const link = await s.refusing(() => s.createOperatorsService(store.db, s.clock).link(options.email));
        ctx.io.out(s.signInUrl(config, link));
        ctx.io.err(`The link above signs ${options.email.trim().toLowerCase()} in once, within ${s.minutes} minutes.`);
      }),
    );
  operator
    .command('list')
    .description('list operators (tab-separated, with a header line): e-mail, communities, live sessions, created')
    .option('--json', 'print a JSON array instead')
    .action((options: { json?: boolean }) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        const rows = await s.createOperatorsService(store.db, s.clock).list();
        if (options.json)
          return printJson(
            ctx.io,
            rows.map((o) => ({
              email: o.email,
              communities: o.communities,
              sessions: o.sessions,
              created_at: `${o.created_at}+00`,
            })),
          );
        ctx.io.out(['email', 'communities', 'sessions', 'created_at'].join('\t'));
        for (const o of rows)
          ctx.io.out([o.email, o.communities.join(',') || '(all)', o.sessions, `${o.created_at}+00`].join('\t'));
      }),
    );
  operator
    .command('remove')
    .description('remove an operator, signing out their sessions')
    .requiredOption('--email <address>', "the operator's e-mail address")
    .action((options: { email: string }) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        await s.refusing(() => s.createOperatorsService(store.db, s.clock).remove(options.email));
        ctx.io.out(`Removed operator ${options.email.trim().toLowerCase()}.`);
      }),
    );
  operator
    .command('sessions')
    .description("list an operator's sessions, or sign them all out with --revoke")
    .requiredOption('--email <address>', "the operator's e-mail address")
    .option('--revoke', 'sign out every session of the operator')
    .action((options: { email: string; revoke?: boolean }) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        const operators = s.createOperatorsService(store.db, s.clock);
        if (options.revoke) {
          const count = await s.refusing(() => operators.revokeSessions(options.email));
          ctx.io.out(`Signed out ${count} session${count === 1 ? '' : 's'} of ${options.email.trim().toLowerCase()}.`);
          return;
        }
        const sessions = await s.refusing(() => operators.sessions(options.email));
        ctx.io.out(['created_at', 'expires_at'].join('\t'));
        for (const row of sessions) ctx.io.out([`${row.created_at}+00`, `${row.expires_at}+00`].join('\t'));
      }),
    );
}
