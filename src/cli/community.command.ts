// `hearth community create|list`.
import type { Command } from 'commander';
import { toWire } from '../lib/timestamps.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

export function communityCommand(program: Command, ctx: CliContext): void {
  const community = program.command('community').description('manage communities (tenants)');
  community
    .command('create <slug>')
    .description('create a community')
    .option('--name <name>', 'display name (defaults to the slug)')
    .action((slug: string, options: { name?: string }) =>
      ctx.withStore(async (store) => {
        const { createCommunitiesService } = await import('../communities/communities.service.js');
        const created = await createCommunitiesService(store.db, store.dialect, ctx.clock).create(
          slug,
          options.name ?? slug,
        );
        ctx.io.out(`Created community '${created.slug}' (${created.name}).`);
      }),
    );
  community
    .command('list')
    .description('list communities (tab-separated: slug, name, created)')
    .option('--json', 'print a JSON array instead')
    .action((options: { json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { createCommunitiesService } = await import('../communities/communities.service.js');
        const rows = await createCommunitiesService(store.db, store.dialect).list();
        if (options.json)
          return printJson(
            ctx.io,
            rows.map(({ id, slug, name, created_at }) => ({ id, slug, name, created_at: toWire(created_at) })),
          );
        if (rows.length === 0) ctx.io.err('No communities yet; create one with `hearth community create SLUG`.');
        for (const c of rows) ctx.io.out(`${c.slug}\t${c.name}\tcreated ${c.created_at.slice(0, 19)} UTC`);
      }),
    );
}
