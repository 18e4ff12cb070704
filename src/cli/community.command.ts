// `hearth community create|list`.
import type { Command } from 'commander';
import { createCommunitiesService } from '../communities/communities.service.js';
import type { CliContext } from './context.js';

export function communityCommand(program: Command, ctx: CliContext): void {
  const community = program.command('community').description('manage communities (tenants)');
  community
    .command('create <slug>')
    .description('create a community')
    .option('--name <name>', 'display name (defaults to the slug)')
    .action((slug: string, options: { name?: string }) =>
      ctx.withStore(async (store) => {
        const created = await createCommunitiesService(store.db, store.dialect).create(slug, options.name ?? slug);
        ctx.io.out(`Created community '${created.slug}' (${created.name}).`);
      }),
    );
  community
    .command('list')
    .description('list communities')
    .action(() =>
      ctx.withStore(async (store) => {
        const rows = await createCommunitiesService(store.db, store.dialect).list();
        if (rows.length === 0) ctx.io.out('No communities yet; create one with `hearth community create SLUG`.');
        for (const c of rows) ctx.io.out(`${c.slug}\t${c.name}\tcreated ${c.created_at.slice(0, 19)} UTC`);
      }),
    );
}
