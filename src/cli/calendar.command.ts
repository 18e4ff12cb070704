// `hearth calendar import` (an iCalendar file or address into a community, all or nothing) and `hearth
// calendar-feed create|list|revoke` (the subscribe URLs calendar apps poll without a token).
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';
import type { ProgressStream } from './progress.js';

/** Unmeasured shares: reading and expanding are quick, writing is most of an import. */
const calendarPhases = [
  ['reading', 0.2],
  ['expanding', 0.1],
  ['writing', 0.7],
] as const;

export function calendarCommand(program: Command, ctx: CliContext, progressStream: ProgressStream): void {
  const calendar = program.command('calendar').description('calendars from iCalendar files and feeds');
  calendar
    .command('import <file-or-url>')
    .description(
      'import an iCalendar file or http(s) address; events keyed by UID, a second import updates them; all or nothing',
    )
    .requiredOption('--community <slug>', 'community to import into')
    .option('--quiet', 'no progress, only the summary line')
    .action((source: string, options: { community: string; quiet?: boolean }) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { importCalendar }, { readFeed }, { FeedError }, { createProgress }] =
          await Promise.all([
            import('../communities/communities.service.js'),
            import('../ical/ical-import.service.js'),
            import('../ical/ical-source.js'),
            import('../ical/ical-lines.js'),
            import('./progress.js'),
          ]);
        const { createWriteRunner } = await import('../writes/write-runner.js');
        const { refreshFragments } = await import('../rendering/fragment-refresh.js');
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const progress = createProgress({
          label: 'calendar import',
          quiet: options.quiet === true,
          stream: progressStream,
          phases: calendarPhases,
        });
        const started = performance.now();
        try {
          const feed = await readFeed(source);
          const writes = createWriteRunner(store.db, ctx.clock, refreshFragments);
          const summary = await importCalendar(
            store.db,
            store.dialect,
            writes,
            ctx.clock,
            community.id,
            feed,
            (phase, records) => progress.update(records, null, phase),
          );
          progress.finish(summary.records);
          const seconds = (performance.now() - started) / 1000;
          ctx.io.out(
            `Imported ${summary.records} events into '${community.slug}': ${summary.created} created, ${summary.updated} updated, ${summary.removed} removed in ${seconds.toFixed(1)} s.`,
          );
        } catch (error) {
          progress.stop();
          if (error instanceof FeedError) throw new CliError(`Import failed, nothing was kept: ${error.message}`);
          throw error;
        }
      }),
    );

  const feed = program
    .command('calendar-feed')
    .description('subscribe URLs of a community calendar (no token needed; the secret is in the URL)');
  feed
    .command('create')
    .description('create a subscribe URL and print it (shown only this once)')
    .requiredOption('--community <slug>', 'community whose public events it holds')
    .option('--feed <feed-id>', "only this feed's events")
    .option('--base-url <url>', 'the address the server is reached at (default: http://HOST:PORT)')
    .option('--json', 'print a JSON object instead')
    .action((options: { community: string; feed?: string; baseUrl?: string; json?: boolean }) =>
      ctx.withStore(async (store, config) => {
        const [{ createCommunitiesService }, { createCalendarFeedsService, CalendarFeedError, calendarPath }] =
          await Promise.all([
            import('../communities/communities.service.js'),
            import('../calendar/calendar-feeds.service.js'),
          ]);
        const base = (options.baseUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
        if (!/^https?:\/\/[^/]/.test(base)) throw new CliError(`Invalid --base-url '${base}': use http(s)://host.`);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        try {
          const made = await createCalendarFeedsService(store.db, ctx.clock).create(community.id, options.feed ?? null);
          const url = `${base}${calendarPath(made.secret)}`;
          if (options.json)
            return printJson(ctx.io, { id: made.id, feed_id: made.feed_id, url, created_at: made.created_at });
          ctx.io.out(url);
          ctx.io.err(
            `Calendar subscription ${made.id} of '${community.slug}'${made.feed_id ? ` (feed ${made.feed_id})` : ''}: the URL above is shown only this once.`,
          );
        } catch (error) {
          if (error instanceof CalendarFeedError) throw new CliError(error.message);
          throw error;
        }
      }),
    );
  feed
    .command('list')
    .description('list the subscribe URLs of a community (tab-separated, with a header line), never their secrets')
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print a JSON array instead')
    .action((options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { createCalendarFeedsService }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../calendar/calendar-feeds.service.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const list = await createCalendarFeedsService(store.db, ctx.clock).list(community.id);
        if (options.json) return printJson(ctx.io, list);
        ctx.io.out(['id', 'feed_id', 'created_at', 'revoked_at'].join('\t'));
        for (const s of list) ctx.io.out([s.id, s.feed_id ?? '-', s.created_at, s.revoked_at ?? '-'].join('\t'));
      }),
    );
  feed
    .command('revoke <id>')
    .description('revoke a subscribe URL: it answers 404 from then on')
    .requiredOption('--community <slug>', 'community')
    .action((id: string, options: { community: string }) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { createCalendarFeedsService, CalendarFeedError }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../calendar/calendar-feeds.service.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        try {
          await createCalendarFeedsService(store.db, ctx.clock).revoke(community.id, id);
        } catch (error) {
          if (error instanceof CalendarFeedError) throw new CliError(error.message);
          throw error;
        }
        ctx.io.out(`Revoked calendar subscription ${id}.`);
      }),
    );
}
