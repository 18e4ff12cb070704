// `hearth token create|list|revoke`: secrets are printed once, at creation, and never again.
import type { Command } from 'commander';
import { createCommunitiesService } from '../communities/communities.service.js';
import { parseScopes } from '../tokens/scopes.js';
import { createTokensService } from '../tokens/tokens.service.js';
import { CliError, type CliContext } from './context.js';

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `90m`, `1w` -> milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  const unit = match?.[2] ? units[match[2]] : undefined;
  if (!match || unit === undefined) throw new CliError(`Invalid duration '${text}': use a number and one of s, m, h, d, w (e.g. 30d).`);
  return Number(match[1]) * unit;
}

export function tokenCommand(program: Command, ctx: CliContext): void {
  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('create a token and print it (shown only this once)')
    .requiredOption('--community <slug>', 'community the token belongs to')
    .option('--scopes <list>', 'comma-separated scopes: read, members:write', 'read')
    .option('--name <name>', 'a name to recognise the token by')
    .option('--expires-in <duration>', 'lifetime such as 30d, 12h, 1w')
    .action((options: { community: string; scopes: string; name?: string; expiresIn?: string }) =>
      ctx.withStore(async (store) => {
        let scopes;
        try {
          scopes = parseScopes(options.scopes);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
        const expiresInMs = options.expiresIn === undefined ? undefined : parseDuration(options.expiresIn);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const created = await createTokensService(store.db).create(community.id, { name: options.name, scopes, expiresInMs });
        ctx.io.out(created.secret);
      }),
    );
  token
    .command('list')
    .description('list tokens of a community (never their secrets)')
    .requiredOption('--community <slug>', 'community')
    .action((options: { community: string }) =>
      ctx.withStore(async (store) => {
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const rows = await createTokensService(store.db).list(community.id);
        ctx.io.out(['id', 'name', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'].join('\t'));
        for (const t of rows) {
          ctx.io.out([t.id, t.name ?? '-', t.scopes, t.created_at, t.expires_at ?? '-', t.revoked_at ?? '-', t.last_used_at ?? '-'].join('\t'));
        }
      }),
    );
  token
    .command('revoke <id>')
    .description('revoke a token by id')
    .action((id: string) =>
      ctx.withStore(async (store) => {
        if (!(await createTokensService(store.db).revoke(id))) throw new CliError(`No active token with id '${id}'.`);
        ctx.io.out(`Revoked token ${id}.`);
      }),
    );
}
