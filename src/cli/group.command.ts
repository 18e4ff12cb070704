// `hearth group list|members`: a community's groups, and one group's members, replaced first when `--set` is given.
import type { Command } from 'commander';
import type { Store } from '../db/store.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';
import { refusing } from './write-errors.js';

async function groupsOf(ctx: CliContext, store: Store, slug: string) {
  const [{ createCommunitiesService }, { createGroupsService }, { createWriteRunner }, { refreshFragments }] =
    await Promise.all([
      import('../communities/communities.service.js'),
      import('../groups/groups.service.js'),
      import('../writes/write-runner.js'),
      import('../rendering/fragment-refresh.js'),
    ]);
  const community = await createCommunitiesService(store.db, store.dialect).get(slug);
  const writes = createWriteRunner(store.db, ctx.clock, refreshFragments);
  return { community, groups: createGroupsService(store.db, store.dialect, writes) };
}

/** `--set U1,U2`: the chat user ids, each once; `--set ''` names none (the group is emptied). */
const chatUserIds = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];

export function groupCommand(program: Command, ctx: CliContext): void {
  const group = program.command('group').description("list a community's groups and set their members");
  group
    .command('list')
    .description(
      'list the groups of a community by name (tab-separated, with a header line: id, name, members, updated)',
    )
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print a JSON array instead, every group with its members')
    .action((options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { community, groups } = await groupsOf(ctx, store, options.community);
        const all = [];
        for (let page = 0; ; page++) {
          const found = await groups.list(community.id, { page, per_page: 100 });
          all.push(...found.records);
          if (!found.has_next) break;
        }
        if (options.json) return printJson(ctx.io, all);
        ctx.io.out(['id', 'name', 'members', 'updated_at'].join('\t'));
        for (const g of all) ctx.io.out([g.id, g.name, g.members_count, g.updated_at].join('\t'));
      }),
    );
  group
    .command('members <group-id>')
    .description(
      "list a group's members (tab-separated, with a header line: profile, chat user, added); --set replaces them first",
    )
    .requiredOption('--community <slug>', 'community')
    .option('--set <chat-user-ids>', "comma-separated chat user ids: the group's members from now on ('' empties it)")
    .option('--json', 'print the group as a JSON object instead')
    .action((groupId: string, options: { community: string; set?: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { community, groups } = await groupsOf(ctx, store, options.community);
        const { sourceActor } = await import('../writes/actor.js');
        const { set } = options;
        const shown = await refusing(() =>
          set === undefined
            ? groups.get(community.id, groupId)
            : groups.replaceMembers(sourceActor(community.id, 'cli'), groupId, chatUserIds(set)),
        );
        if (options.json) return printJson(ctx.io, shown);
        ctx.io.out(['profile_id', 'chat_user_id', 'added_at'].join('\t'));
        for (const m of shown.members) ctx.io.out([m.profile_id, m.chat_user_id ?? '-', m.added_at].join('\t'));
      }),
    );
}
