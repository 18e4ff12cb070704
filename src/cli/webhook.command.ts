// `hearth webhook add|list|remove|deliveries|replay`: subscribe URLs to a community's changes and watch their deliveries.
import type { Command } from 'commander';
import { parseLimit } from './audit.command.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

async function services(ctx: CliContext) {
  const [{ createCommunitiesService }, { createWebhooksService, WebhookError }] = await Promise.all([
    import('../communities/communities.service.js'),
    import('../webhooks/webhooks.service.js'),
  ]);
  /** Turns the service's refusals into the command line's own errors. */
  const refusing = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WebhookError) throw new CliError(error.message);
      throw error;
    }
  };
  return { createCommunitiesService, createWebhooksService, refusing, io: ctx.io };
}

export function webhookCommand(program: Command, ctx: CliContext): void {
  const webhook = program
    .command('webhook')
    .description('send signed webhooks (Standard Webhooks) when a community changes');
  webhook
    .command('add <url>')
    .description('subscribe an http(s) URL; prints the id and the signing secret (shown only this once)')
    .requiredOption('--community <slug>', 'community whose changes are sent')
    .option(
      '--events <list>',
      'comma-separated event types or kind.* patterns (calendar_event.*, member.*, group.*, import.completed)',
      '*',
    )
    .option('--secret <whsec>', 'signing secret (whsec_ and base64); default: a new random one')
    .option('--json', 'print a JSON object instead')
    .action((url: string, options: { community: string; events: string; secret?: string; json?: boolean }) =>
      ctx.withStore(async (store, config) => {
        const s = await services(ctx);
        const community = await s.createCommunitiesService(store.db, store.dialect).get(options.community);
        const added = await s.refusing(() =>
          s.createWebhooksService(store.db, ctx.clock).add(community.id, url, {
            events: options.events,
            secret: options.secret,
            allowPrivate: config.webhookAllowPrivate,
          }),
        );
        if (options.json) return printJson(ctx.io, added);
        ctx.io.out(`${added.id}\t${added.secret}`);
        ctx.io.err(
          `Webhook ${added.id} sends ${added.event_types.join(', ')} of '${community.slug}' to ${added.url}; verify with the secret above.`,
        );
      }),
    );
  webhook
    .command('list')
    .description('list the webhooks of a community (tab-separated, with a header line), never their secrets')
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print a JSON array instead')
    .action((options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        const community = await s.createCommunitiesService(store.db, store.dialect).get(options.community);
        const hooks = await s.createWebhooksService(store.db, ctx.clock).list(community.id);
        if (options.json) return printJson(ctx.io, hooks);
        ctx.io.out(['id', 'url', 'events', 'created_at'].join('\t'));
        for (const h of hooks) ctx.io.out([h.id, h.url, h.event_types.join(','), h.created_at].join('\t'));
      }),
    );
  webhook
    .command('remove <id>')
    .description('remove a webhook and its undelivered messages')
    .action((id: string) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        if (!(await s.createWebhooksService(store.db, ctx.clock).remove(id)))
          throw new CliError(`No webhook with id '${id}'.`);
        ctx.io.out(`Removed webhook ${id}.`);
      }),
    );
  webhook
    .command('deliveries <id>')
    .description(
      'recent delivery attempts of a webhook, newest first (tab-separated: delivery, message, type, attempt, time, ms, status, outcome)',
    )
    .option('--limit <n>', 'at most this many attempts', '50')
    .option('--json', 'print a JSON array instead')
    .action((id: string, options: { limit: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const limit = parseLimit(options.limit);
        const s = await services(ctx);
        const attempts = await s.refusing(() => s.createWebhooksService(store.db, ctx.clock).deliveries(id, limit));
        if (options.json) return printJson(ctx.io, attempts);
        if (attempts.length === 0) ctx.io.err(`No delivery attempts for webhook ${id} yet.`);
        for (const a of attempts) {
          ctx.io.out(
            [
              a.id,
              a.message_id,
              a.event_type,
              a.attempt,
              a.started_at,
              a.duration_ms,
              a.status_code ?? '-',
              a.ok ? 'ok' : `failed: ${a.error ?? ''}`,
            ].join('\t'),
          );
        }
      }),
    );
  webhook
    .command('replay <delivery-id>')
    .description('send the message of a delivery attempt again (same webhook-id); a running server sends it')
    .action((deliveryId: string) =>
      ctx.withStore(async (store) => {
        const s = await services(ctx);
        const messageId = await s.refusing(() => s.createWebhooksService(store.db, ctx.clock).replay(deliveryId));
        ctx.io.out(`Queued message ${messageId} again.`);
      }),
    );
}
