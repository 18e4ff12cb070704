// `hearth slack announcements`: the Slack announcements of calendar events still to send (`--failed`: those parked
// after repeated failures, with the reason), and `--retry` to make a community's parked ones due again.
import type { Command } from 'commander';
import { toStored, toWire } from '../lib/timestamps.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

interface AnnouncementFlags {
  failed?: boolean;
  retry?: boolean;
  community?: string;
  event?: string;
  json?: boolean;
}

export function slackAnnouncementsCommand(slack: Command, ctx: CliContext): void {
  slack
    .command('announcements')
    .description('Slack announcements of events still to send; --failed: the parked ones; --retry: send them again')
    .option('--failed', 'only announcements parked after repeated failures')
    .option('--retry', "make the community's parked announcements due again (with --community, optionally --event)")
    .option('--community <slug>', 'the community (for --retry)')
    .option('--event <id>', "only this event's (for --retry)")
    .option('--json', 'print the list as JSON')
    .action((flags: AnnouncementFlags) =>
      ctx.withStore(async (store) => {
        const [{ listAnnouncements, retryParked }, { createCommunitiesService }] = await Promise.all([
          import('../chat-announcements/announcements.repository.js'),
          import('../communities/communities.service.js'),
        ]);
        if (flags.retry) {
          if (flags.community === undefined) throw new CliError('--retry needs --community <slug>.');
          const community = await createCommunitiesService(store.db, store.dialect).get(flags.community);
          const count = await retryParked(store.db, community.id, flags.event ?? null, toStored(ctx.clock()));
          ctx.io.out(
            `${count} parked announcement${count === 1 ? '' : 's'} of '${community.slug}' due again; a running hearth serve sends ${count === 1 ? 'it' : 'them'}.`,
          );
          return;
        }
        if (flags.event !== undefined || flags.community !== undefined)
          throw new CliError('--community and --event go with --retry.');
        const rows = (await listAnnouncements(store.db, flags.failed ? ['failed'] : ['pending', 'failed'])).map(
          (row) => ({
            community: row.slug,
            event_id: row.event_id,
            channel: row.chat_channel_id,
            wanted: row.wanted,
            state: row.state,
            attempts: Number(row.attempts),
            next_attempt_at: toWire(row.next_attempt_at),
            last_error: row.last_error,
          }),
        );
        if (flags.json) return printJson(ctx.io, rows);
        if (rows.length === 0) {
          ctx.io.out(flags.failed ? 'No parked announcements.' : 'No announcements waiting.');
          return;
        }
        ctx.io.out(['community', 'event', 'channel', 'wanted', 'state', 'attempts', 'last_error'].join('\t'));
        for (const r of rows)
          ctx.io.out(
            [r.community, r.event_id, r.channel, r.wanted, r.state, String(r.attempts), r.last_error ?? ''].join('\t'),
          );
      }),
    );
}
