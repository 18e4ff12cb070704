// `hearth token create|list|revoke`: secrets are printed once, at creation, and never again.
import type { Command } from 'commander';
import { parseDuration as parseLibDuration } from '../lib/duration.js';
import { toWire } from '../lib/timestamps.js';
import type { FieldNames } from '../tokens/field-names.js';
import type { Scope } from '../tokens/scopes.js';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { printJson } from './output.js';

/** `parseDuration` of lib/duration.ts, its refusal as the command line's. */
export function parseDuration(text: string): number {
  try {
    return parseLibDuration(text);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export function tokenCommand(program: Command, ctx: CliContext): void {
  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('create a token and print it (shown only this once)')
    .requiredOption('--community <slug>', 'community the token belongs to')
    .option('--scopes <list>', 'comma-separated scopes: read, members:write, events:write', 'read')
    .option('--name <name>', 'a name to recognise the token by')
    .option('--expires-in <duration>', 'lifetime such as 30d, 12h, 1w (default: never expires)')
    .option(
      '--field-names <mode>',
      "names in this token's answers: spec, or hosted (the hosted product's slack_*/luma_* names and formats)",
      'spec',
    )
    .action(
      async (options: { community: string; scopes: string; name?: string; expiresIn?: string; fieldNames: string }) => {
        // Checked before the store is opened: a typo costs no migration run.
        const expiresInMs = options.expiresIn === undefined ? undefined : parseDuration(options.expiresIn);
        const [{ parseScopes }, { parseFieldNames }] = await Promise.all([
          import('../tokens/scopes.js'),
          import('../tokens/field-names.js'),
        ]);
        let scopes: Scope[];
        let fieldNames: FieldNames;
        try {
          scopes = parseScopes(options.scopes);
          fieldNames = parseFieldNames(options.fieldNames);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
        await ctx.withStore(async (store) => {
          const [{ createCommunitiesService }, { createTokensService }] = await Promise.all([
            import('../communities/communities.service.js'),
            import('../tokens/tokens.service.js'),
          ]);
          const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
          const created = await createTokensService(store.db, ctx.clock).create(community.id, {
            name: options.name,
            scopes,
            expiresInMs,
            fieldNames,
          });
          ctx.io.out(created.secret);
        });
      },
    );
  token
    .command('list')
    .description('list tokens of a community, never their secrets (tab-separated, with a header line)')
    .requiredOption('--community <slug>', 'community')
    .option('--json', 'print a JSON array instead')
    .action((options: { community: string; json?: boolean }) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { createTokensService }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../tokens/tokens.service.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        // Timestamps in the API's wire form, zone included (`2026-11-26 16:01:33.123000+00`).
        const rows = (await createTokensService(store.db, ctx.clock).list(community.id)).map((t) => ({
          ...t,
          created_at: toWire(t.created_at),
          expires_at: toWire(t.expires_at),
          revoked_at: toWire(t.revoked_at),
          last_used_at: toWire(t.last_used_at),
        }));
        if (options.json)
          return printJson(
            ctx.io,
            rows.map((t) => ({ ...t, scopes: t.scopes.split(',') })),
          );
        ctx.io.out(
          ['id', 'name', 'scopes', 'field_names', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'].join('\t'),
        );
        for (const t of rows) {
          ctx.io.out(
            [
              t.id,
              t.name ?? '-',
              t.scopes,
              t.field_names,
              t.created_at,
              t.expires_at ?? '-',
              t.revoked_at ?? '-',
              t.last_used_at ?? '-',
            ].join('\t'),
          );
        }
      }),
    );
  token
    .command('revoke <id>')
    .description('revoke a token by id')
    .action((id: string) =>
      ctx.withStore(async (store) => {
        const { createTokensService } = await import('../tokens/tokens.service.js');
        if (!(await createTokensService(store.db, ctx.clock).revoke(id)))
          throw new CliError(`No active token with id '${id}'.`);
        ctx.io.out(`Revoked token ${id}.`);
      }),
    );
}
