// `hearth slack …`: a community's Slack workspace: its history from an export (`import`) or the Web API (`sync`),
// the connection the sync and the live mirror use (`connect`, `status`), the live mirror's events (`events`) and the
// announcements of events (`announcements`).
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import type { ProgressStream } from './progress.js';
import { slackAnnouncementsCommand } from './slack-announcements.command.js';
import { slackConnectCommands } from './slack-connect.command.js';
import { slackEventsCommands } from './slack-events.command.js';
import { slackImportCommand } from './slack-import.command.js';
import { slackSyncCommand } from './slack-sync.command.js';

export function slackCommand(program: Command, ctx: CliContext, progressStream: ProgressStream): void {
  const slack = program
    .command('slack')
    .description("a community's Slack workspace: history from an export or the Web API, and the connection");
  slackImportCommand(slack, ctx, progressStream);
  slackSyncCommand(slack, ctx);
  slackConnectCommands(slack, ctx);
  slackAnnouncementsCommand(slack, ctx);
  slackEventsCommands(slack, ctx);
}
