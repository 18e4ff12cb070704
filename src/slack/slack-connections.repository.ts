// SQL of the slack_connections table: one row per community, its secrets included (read by the command line only).
import type { Kysely } from 'kysely';
import type { Database, SlackConnectionsTable } from '../db/database.js';

export type SlackConnectionRow = SlackConnectionsTable;

export function findConnection(db: Kysely<Database>, communityId: string): Promise<SlackConnectionRow | undefined> {
  return db.selectFrom('slack_connections').selectAll().where('community_id', '=', communityId).executeTakeFirst();
}

export async function saveConnection(db: Kysely<Database>, row: SlackConnectionRow): Promise<void> {
  await db
    .insertInto('slack_connections')
    .values(row)
    .onConflict((oc) =>
      oc.column('community_id').doUpdateSet({
        bot_token: row.bot_token,
        signing_secret: row.signing_secret,
        channels: row.channels,
        app_token: row.app_token,
        workspace_domain: row.workspace_domain,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** A sync done: when, and the workspace's domain auth.test gave (kept when it gave none). */
export async function markSynced(
  db: Kysely<Database>,
  communityId: string,
  at: string,
  domain: string | null,
): Promise<void> {
  await db
    .updateTable('slack_connections')
    .set(domain === null ? { synced_at: at } : { synced_at: at, workspace_domain: domain })
    .where('community_id', '=', communityId)
    .execute();
}

/** Every connection with an app-level token: the sockets `hearth serve` opens (Socket Mode). */
export function socketModeConnections(db: Kysely<Database>) {
  return db
    .selectFrom('slack_connections')
    .innerJoin('communities', 'communities.id', 'slack_connections.community_id')
    .select(['communities.id', 'communities.slug', 'slack_connections.app_token'])
    .where('slack_connections.app_token', 'is not', null)
    .orderBy('communities.slug')
    .execute();
}

/** Every connection with its community's slug, secrets left out of the query. */
export function listConnections(db: Kysely<Database>) {
  return db
    .selectFrom('slack_connections')
    .innerJoin('communities', 'communities.id', 'slack_connections.community_id')
    .select([
      'communities.slug',
      'slack_connections.signing_secret',
      'slack_connections.channels',
      'slack_connections.app_token',
      'slack_connections.workspace_domain',
      'slack_connections.created_at',
      'slack_connections.updated_at',
      'slack_connections.synced_at',
    ])
    .orderBy('communities.slug')
    .execute();
}

/** Every connected community with its bot token and channels, for the scheduled sync (in `hearth serve`). */
export function connectedCommunities(db: Kysely<Database>) {
  return db
    .selectFrom('slack_connections')
    .innerJoin('communities', 'communities.id', 'slack_connections.community_id')
    .select(['communities.id', 'communities.slug', 'slack_connections.bot_token', 'slack_connections.channels'])
    .orderBy('communities.slug')
    .execute();
}

/** A channel the connection names renamed in Slack: the connection names it by its new name, so it stays mirrored. */
export async function renameConnectedChannel(
  db: Kysely<Database>,
  communityId: string,
  from: string,
  to: string,
): Promise<void> {
  const row = await db
    .selectFrom('slack_connections')
    .select('channels')
    .where('community_id', '=', communityId)
    .executeTakeFirst();
  if (!row?.channels) return;
  const names = JSON.parse(row.channels) as string[];
  if (!names.includes(from)) return;
  await db
    .updateTable('slack_connections')
    .set({ channels: JSON.stringify(names.map((name) => (name === from ? to : name))) })
    .where('community_id', '=', communityId)
    .execute();
}
