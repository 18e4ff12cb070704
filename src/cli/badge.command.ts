// `hearth badge list|assign`: a community's badges with their holders, and giving a badge to members by chat user id.
import type { Command } from 'commander';
import type { Store } from '../db/store.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';
import { refusing } from './write-errors.js';

async function badgesOf(ctx: CliContext, store: Store, slug: string) {
  const [{ createCommunitiesService }, { createBadgesService }, { createWriteRunner }, { refreshFragments }] =
    await Promise.all([
      import('../communities/communities.service.js'),
      import('../badges/badges.service.js'),
      import('../writes/write-runner.js'),
      import('../rendering/fragment-refresh.js'),
    ]);
  const community = await createCommunitiesService(store.db, store.dialect).get(slug);
  const writes = createWriteRunner(store.db, ctx.clock, refreshFragments);
  return { community, badges: createBadgesService(store.db, store.dialect, writes) };
}

export function badgeCommand(program: Command, ctx: CliContext): void {
  const badge = program.command('badge').description("list a community's badges and give them to members");
  badge
    .command('list')
    .description(
      'list the badges of a community by name (tab-separated, with a header line: id, name, members, updated)',
    )
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print a JSON array instead, every badge with its members')
    .action((options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { community, badges } = await badgesOf(ctx, store, options.community);
        const all = [];
        for (let page = 0; ; page++) {
          const found = await badges.list(community.id, { page, per_page: 100 });
          all.push(...found.records);
          if (!found.has_next) break;
        }
        if (options.json) return printJson(ctx.io, all);
        ctx.io.out(['id', 'name', 'members', 'updated_at'].join('\t'));
        for (const b of all) ctx.io.out([b.id, b.name, b.members_count, b.updated_at].join('\t'));
      }),
    );
  badge
    .command('assign <badge-id> <chat-user-ids...>')
    .description('give a badge to the members with these chat user ids (those holding it keep it as it was)')
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print the badge as a JSON object instead')
    .action((badgeId: string, users: string[], options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { community, badges } = await badgesOf(ctx, store, options.community);
        const { sourceActor } = await import('../writes/actor.js');
        const before = await refusing(() => badges.get(community.id, badgeId));
        const after = await refusing(() => badges.assign(sourceActor(community.id, 'cli'), badgeId, users));
        if (options.json) return printJson(ctx.io, after);
        const added = after.members_count - before.members_count;
        ctx.io.out(
          `Badge '${after.name}' has ${after.members_count} member${after.members_count === 1 ? '' : 's'} (${added} new).`,
        );
      }),
    );
}
