// A community's Slack connection (what `hearth slack connect` and `status` do): the bot token, signing secret and
// app-level token the sync and the live mirror need, the workspace's domain, and the channels to mirror. Secrets are checked, stored, and handed only to
// the sync; status shows whether they are set, never their values.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { toStored, toWire } from '../lib/timestamps.js';
import { findConnection, listConnections, markSynced, saveConnection } from './slack-connections.repository.js';

export class SlackConnectionError extends Error {}

const BOT_TOKEN = /^xoxb-[A-Za-z0-9-]{10,250}$/;
const SIGNING_SECRET = /^[0-9a-f]{16,128}$/;
const APP_TOKEN = /^xapp-[A-Za-z0-9-]{10,250}$/;

export interface ConnectInput {
  /** Required on the first connect; kept when left out later. */
  botToken?: string;
  signingSecret?: string;
  /** The app-level token for Socket Mode (`xapp-…`); kept when left out. */
  appToken?: string;
  /** The workspace's domain (`acme` of acme.slack.com), from auth.test; kept when left out or null. */
  workspaceDomain?: string | null;
  /** Channel names or ids; `all` mirrors every public channel; kept when left out. */
  channels?: readonly string[] | 'all';
}

export interface SlackConnection {
  botToken: string;
  signingSecret: string | null;
  appToken: string | null;
  workspaceDomain: string | null;
  /** null: every public channel. */
  channels: string[] | null;
}

export interface ConnectionStatus {
  community: string;
  bot_token: 'set';
  signing_secret: 'set' | 'not set';
  /** Socket Mode's app-level token: set, `hearth serve` opens a socket for the community. */
  app_token: 'set' | 'not set';
  /** The workspace's domain (acme.slack.com), or null until `connect` or a sync learned it. */
  workspace: string | null;
  channels: string[] | 'all public';
  created_at: string;
  updated_at: string;
  synced_at: string | null;
}

const channelsOf = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));

export function createSlackConnectionsService(db: Kysely<Database>, clock: Clock = systemClock) {
  return {
    async connect(communityId: string, input: ConnectInput): Promise<SlackConnection> {
      const before = await findConnection(db, communityId);
      const botToken = input.botToken?.trim() ?? before?.bot_token;
      if (botToken === undefined)
        throw new SlackConnectionError(
          'A first connect needs the bot token: set SLACK_BOT_TOKEN or pass --bot-token-file (never the token itself on the command line).',
        );
      if (!BOT_TOKEN.test(botToken))
        throw new SlackConnectionError(
          `The bot token is not a Slack bot token ('xoxb-…', ${botToken.length} characters given).`,
        );
      const signingSecret = input.signingSecret?.trim() ?? before?.signing_secret ?? null;
      if (signingSecret !== null && !SIGNING_SECRET.test(signingSecret))
        throw new SlackConnectionError(
          `The signing secret is not a Slack signing secret (hexadecimal, ${signingSecret.length} characters given).`,
        );
      const appToken = input.appToken?.trim() ?? before?.app_token ?? null;
      if (appToken !== null && !APP_TOKEN.test(appToken))
        throw new SlackConnectionError(
          `The app-level token is not a Slack app-level token ('xapp-…', ${appToken.length} characters given).`,
        );
      const workspaceDomain = input.workspaceDomain ?? before?.workspace_domain ?? null;
      const channels =
        input.channels === undefined
          ? channelsOf(before?.channels ?? null)
          : input.channels === 'all'
            ? null
            : input.channels.map((name) => name.replace(/^#/, ''));
      if (channels !== null && channels.length === 0)
        throw new SlackConnectionError(
          '--channels names no channel; pass --all-public to mirror every public channel.',
        );
      const now = toStored(clock());
      await saveConnection(db, {
        community_id: communityId,
        bot_token: botToken,
        signing_secret: signingSecret,
        channels: channels === null ? null : JSON.stringify(channels),
        app_token: appToken,
        workspace_domain: workspaceDomain,
        created_at: before?.created_at ?? now,
        updated_at: now,
        synced_at: before?.synced_at ?? null,
      });
      return { botToken, signingSecret, appToken, workspaceDomain, channels };
    },

    /** The connection with its secrets, for the sync; null when the community has none. */
    async get(communityId: string): Promise<SlackConnection | null> {
      const row = await findConnection(db, communityId);
      return row
        ? {
            botToken: row.bot_token,
            signingSecret: row.signing_secret,
            appToken: row.app_token,
            workspaceDomain: row.workspace_domain,
            channels: channelsOf(row.channels),
          }
        : null;
    },

    markSynced: (communityId: string, domain: string | null = null) =>
      markSynced(db, communityId, toStored(clock()), domain),

    async status(): Promise<ConnectionStatus[]> {
      return (await listConnections(db)).map((row) => ({
        community: row.slug,
        bot_token: 'set',
        signing_secret: row.signing_secret === null ? 'not set' : 'set',
        app_token: row.app_token === null ? 'not set' : 'set',
        workspace: row.workspace_domain === null ? null : `${row.workspace_domain}.slack.com`,
        channels: channelsOf(row.channels) ?? 'all public',
        created_at: toWire(row.created_at),
        updated_at: toWire(row.updated_at),
        synced_at: toWire(row.synced_at),
      }));
    },
  };
}
