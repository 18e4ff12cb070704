// `hearth slack connect` and `hearth slack status`: a community's Slack connection. The bot token, signing secret
// and app-level token come from a file or the environment, never from the arguments (which every user of the machine can list),
// and are never printed.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { list } from './slack-import.command.js';

interface ConnectFlags {
  community: string;
  botTokenFile?: string;
  signingSecretFile?: string;
  appTokenFile?: string;
  channels?: string;
  allPublic?: boolean;
}

function secretFile(path: string | undefined, what: string): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new CliError(`Cannot read the ${what} from '${path}': ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
}

/**
 * The workspace's domain, from auth.test with the bot token (live messages' permalinks are built with it); null, and
 * a line saying so, when Slack cannot be asked now (the next sync learns it).
 */
async function domainOf(botToken: string | undefined, apiUrl: string, err: (line: string) => void) {
  if (botToken === undefined || !/^xoxb-/.test(botToken)) return null;
  const [{ slackApi }, { workspace }] = await Promise.all([
    import('../slack/web-api.js'),
    import('../slack/sync.service.js'),
  ]);
  try {
    return (await workspace(slackApi({ token: botToken, apiUrl, retries: 0 }))).domain;
  } catch (error) {
    err(
      `hearth: Slack's auth.test could not be asked (${error instanceof Error ? error.message : String(error)}); live messages' permalinks start after the next sync.`,
    );
    return null;
  }
}

export function slackConnectCommands(slack: Command, ctx: CliContext): void {
  slack
    .command('connect')
    .description("store a community's Slack bot token, signing secret and channels to mirror (secrets never shown)")
    .requiredOption('--community <slug>', 'the community')
    .option('--bot-token-file <path>', 'a file holding the bot token (xoxb-…); else SLACK_BOT_TOKEN')
    .option('--signing-secret-file <path>', "a file holding the app's signing secret; else SLACK_SIGNING_SECRET")
    .option(
      '--app-token-file <path>',
      'a file holding the app-level token for Socket Mode (xapp-…); else SLACK_APP_TOKEN',
    )
    .option('--channels <names>', 'the channels to mirror (names or ids, comma-separated)')
    .option('--all-public', 'mirror every public channel (the default of a first connect)')
    .action((flags: ConnectFlags) =>
      ctx.withStore(async (store, config) => {
        if (flags.channels !== undefined && flags.allPublic)
          throw new CliError('Pass --channels or --all-public, not both.');
        const [{ createCommunitiesService }, { createSlackConnectionsService, SlackConnectionError }] =
          await Promise.all([
            import('../communities/communities.service.js'),
            import('../slack/slack-connections.service.js'),
          ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(flags.community);
        const connections = createSlackConnectionsService(store.db, ctx.clock);
        const botToken =
          secretFile(flags.botTokenFile, 'bot token') ??
          config.slackBotToken ??
          (await connections.get(community.id))?.botToken;
        try {
          const connection = await connections.connect(community.id, {
            botToken,
            signingSecret:
              secretFile(flags.signingSecretFile, 'signing secret') ?? config.slackSigningSecret ?? undefined,
            appToken: secretFile(flags.appTokenFile, 'app-level token') ?? config.slackAppToken ?? undefined,
            workspaceDomain: await domainOf(botToken, config.slackApiUrl, ctx.io.err),
            channels: flags.allPublic ? 'all' : list(flags.channels),
          });
          ctx.io.out(
            `Connected '${community.slug}' to Slack: bot token set, signing secret ${connection.signingSecret === null ? 'not set' : 'set'}, app-level token ${connection.appToken === null ? 'not set' : 'set (Socket Mode)'}, workspace ${connection.workspaceDomain === null ? 'unknown' : `${connection.workspaceDomain}.slack.com`}, channels: ${connection.channels?.join(', ') ?? 'all public'}.`,
          );
        } catch (error) {
          if (error instanceof SlackConnectionError) throw new CliError(error.message);
          throw error;
        }
      }),
    );

  slack
    .command('status')
    .description("every community's Slack connection, without its secrets")
    .option('--json', 'print one JSON array')
    .action((flags: { json?: boolean }) =>
      ctx.withStore(async (store) => {
        const { createSlackConnectionsService } = await import('../slack/slack-connections.service.js');
        const connections = await createSlackConnectionsService(store.db, ctx.clock).status();
        if (flags.json) {
          ctx.io.out(JSON.stringify(connections));
          return;
        }
        ctx.io.out(
          [
            'community',
            'bot_token',
            'signing_secret',
            'app_token',
            'workspace',
            'channels',
            'connected_at',
            'synced_at',
          ].join('\t'),
        );
        for (const c of connections)
          ctx.io.out(
            [
              c.community,
              c.bot_token,
              c.signing_secret,
              c.app_token,
              c.workspace ?? 'unknown',
              Array.isArray(c.channels) ? c.channels.join(',') : c.channels,
              c.created_at,
              c.synced_at ?? 'never',
            ].join('\t'),
          );
      }),
    );
}
