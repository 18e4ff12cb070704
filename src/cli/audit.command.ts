// `hearth audit --community SLUG [--limit N] [--json]`: the audit trail of a community, newest first, one line each.
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

const MAX_LIMIT = 10_000;

export function parseLimit(text: string): number {
  const limit = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT))
    throw new CliError(`Invalid limit '${text}': use a whole number from 1 to ${MAX_LIMIT}.`);
  return limit;
}

export function auditCommand(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description(
      'list audit records of a community, newest first (tab-separated: time, action, subject, e-mail, token, request)',
    )
    .requiredOption('--community <slug>', 'community')
    .option('--limit <n>', 'at most this many records', '50')
    .option('--json', 'print a JSON array instead')
    .action((options: { community: string; limit: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const limit = parseLimit(options.limit);
        const [{ listAudit }, { createCommunitiesService }] = await Promise.all([
          import('../audit/audit.service.js'),
          import('../communities/communities.service.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const records = (await listAudit(store.db, community.id, limit)).map((r) => ({
          time: `${r.created_at}+00`,
          action: r.action,
          subject_id: r.subject_id,
          email: typeof r.detail['email'] === 'string' ? r.detail['email'] : null,
          token_id: r.token_id,
          request_id: r.request_id,
        }));
        if (options.json) return printJson(ctx.io, records);
        // Stdout stays one line per record for scripts; the hint for an empty trail goes to stderr.
        if (records.length === 0) ctx.io.err(`No audit records in '${community.slug}' yet.`);
        for (const r of records)
          ctx.io.out([r.time, r.action, r.subject_id, r.email ?? '-', r.token_id, r.request_id].join('\t'));
      }),
    );
}
