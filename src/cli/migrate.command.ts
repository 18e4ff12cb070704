// `hearth migrate`: applies this version's pending migrations and renders what they leave pending, saying what it
// applied; `hearth migrate status`: lists them (exit code 3 while some are pending).
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export function migrateCommand(program: Command, ctx: CliContext): void {
  const upToDate = async () => {
    const { migrationNames } = await import('../db/migrate.js');
    return `The store is up to date: ${plural(migrationNames().length, 'migration')} applied.`;
  };
  const migrate = program
    .command('migrate')
    .description('apply pending migrations (back the store up first: hearth backup FILE); `migrate status` lists them')
    .action(() =>
      ctx.withStore(async (store) => {
        const { upgradeStore } = await import('../store-upgrade.js');
        const { applied, rendered } = await upgradeStore(store);
        for (const name of applied) ctx.io.out(`Applied ${name}.`);
        if (rendered > 0) ctx.io.out(`Rendered the records of ${plural(rendered, 'community', 'communities')} again.`);
        ctx.io.out(await upToDate());
      }, 'as-is'),
    );
  migrate
    .command('status')
    .description(
      "list the store's migrations, tab-separated: applied, pending, or unknown (a newer Hearth's); exit code 3 when some are pending",
    )
    .action(() =>
      ctx.withStore(async (store) => {
        const [{ StoreAheadError }, { storeState }] = await Promise.all([
          import('../db/migrate.js'),
          import('../store-upgrade.js'),
        ]);
        const state = await storeState(store);
        for (const name of state.applied) ctx.io.out(`applied\t${name}`);
        for (const name of state.pending) ctx.io.out(`pending\t${name}`);
        for (const name of state.unknown) ctx.io.out(`unknown\t${name}`);
        if (state.unknown.length > 0) throw new StoreAheadError(state.unknown);
        if (state.pending.length > 0)
          throw new CliError(`${plural(state.pending.length, 'migration')} pending: run \`hearth migrate\`.`, 3);
        if (state.rendersPending)
          throw new CliError("The last migration's records are left to render again: run `hearth migrate`.", 3);
        ctx.io.err(await upToDate());
      }, 'as-is'),
    );
}
