// A Slack connection's app-level token (`xapp-…`, for Socket Mode: `hearth serve` opens a socket instead of being
// sent events at a request URL) and its workspace's domain (`acme` of acme.slack.com, from auth.test), with which
// live messages' permalinks are built as the import builds them.
import type { Kysely } from 'kysely';

export function slackSocketModeMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('slack_connections').addColumn('app_token', 'text').execute();
      await db.schema.alterTable('slack_connections').addColumn('workspace_domain', 'text').execute();
    },
  };
}
