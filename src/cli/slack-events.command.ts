// `hearth slack events`: the inbox of Slack events acknowledged by the request URL: how many wait, the parked ones
// (`--failed`: id, community, type, attempts, error), `retry` to queue parked ones again, `--dismiss` to give them up,
// and `apply` to apply what is due now in this process (what a serving process does in the background).
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

interface ListFlags {
  failed?: boolean;
  dismiss?: string[];
  community?: string;
}

export function slackEventsCommands(slack: Command, ctx: CliContext): void {
  const communityOf = async (store: Parameters<Parameters<CliContext['withStore']>[0]>[0], slug?: string) => {
    if (slug === undefined) return null;
    const { createCommunitiesService } = await import('../communities/communities.service.js');
    return (await createCommunitiesService(store.db, store.dialect).get(slug)).id;
  };

  const events = slack
    .command('events')
    .description('the Slack events acknowledged and not yet applied, and the parked ones (--failed)')
    .option('--failed', 'list parked events: id, community, type, attempts, error')
    .option('--dismiss <ids...>', 'give up parked events: settled as done (outcome dismissed), never applied')
    .option('--community <slug>', 'only this community')
    .action((flags: ListFlags) =>
      ctx.withStore(async (store) => {
        const { dismissParked, inboxCounts, parkedRows } = await import('../slack-inbox/slack-inbox.repository.js');
        const communityId = await communityOf(store, flags.community);
        if (flags.dismiss) {
          const { toStored } = await import('../lib/timestamps.js');
          const ids = flags.dismiss;
          const dismissed = await dismissParked(store.db, ids, communityId, toStored(ctx.clock()));
          if (dismissed < ids.length)
            throw new CliError(
              `${ids.length - dismissed} of the ids named are not parked events; ${dismissed} dismissed.`,
            );
          ctx.io.out(`${dismissed} parked event${dismissed === 1 ? '' : 's'} dismissed.`);
          return;
        }
        if (!flags.failed) {
          const counts = await inboxCounts(store.db, communityId);
          ctx.io.out(`pending ${counts.pending ?? 0}, done ${counts.done ?? 0}, parked ${counts.parked ?? 0}`);
          return;
        }
        ctx.io.out(['id', 'community', 'type', 'attempts', 'error'].join('\t'));
        for (const row of await parkedRows(store.db, communityId))
          ctx.io.out(
            [row.id, row.community, row.event_type, row.attempts, (row.error ?? '').replace(/\s+/g, ' ')].join('\t'),
          );
      }),
    );

  events
    .command('retry')
    .description('queue parked events again (by id, or --all), each with its attempts counted afresh')
    .argument('[ids...]', 'ids as `hearth slack events --failed` lists them')
    .option('--all', 'every parked event (of --community, if given)')
    .option('--community <slug>', 'only this community')
    .action((ids: string[], flags: { all?: boolean; community?: string }) =>
      ctx.withStore(async (store) => {
        if ((ids.length === 0) === !flags.all) throw new CliError('Name the ids to retry, or pass --all (not both).');
        const { requeueParked } = await import('../slack-inbox/slack-inbox.repository.js');
        const { toStored } = await import('../lib/timestamps.js');
        const communityId = await communityOf(store, flags.community);
        const queued = await requeueParked(store.db, flags.all ? 'all' : ids, communityId, toStored(ctx.clock()));
        if (!flags.all && queued < ids.length)
          throw new CliError(`${ids.length - queued} of the ids named are not parked events; ${queued} queued again.`);
        ctx.io.out(`${queued} parked event${queued === 1 ? '' : 's'} queued again.`);
      }),
    );

  events
    .command('apply')
    .description('apply the events due now in this process, then exit (a serving process does this in the background)')
    .action(() =>
      ctx.withStore(async (store, config) => {
        const [{ createInboxApplier }, { slackApi }, { createWriteRunner }, { refreshFragments }] = await Promise.all([
          import('../slack/inbox-applier.js'),
          import('../slack/web-api.js'),
          import('../writes/write-runner.js'),
          import('../rendering/fragment-refresh.js'),
        ]);
        const applier = createInboxApplier({
          store,
          writes: createWriteRunner(store.db, ctx.clock, refreshFragments),
          clock: ctx.clock,
          apiFor: (token) => slackApi({ token, apiUrl: config.slackApiUrl, retries: 2 }),
        });
        const counts = await applier.applyDue();
        ctx.io.out(
          `Applied ${counts.applied}, ignored ${counts.ignored}, to retry ${counts.retried}, parked ${counts.parked}.`,
        );
      }),
    );
}
