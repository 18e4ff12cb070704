// The `hearth` command line: one program, one subcommand per job. Only commander loads up front; each command
// loads the config, the store and its services when it runs, so `hearth --help` answers at once.
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { Command, CommanderError } from 'commander';
import { auditCommand } from './audit.command.js';
import { backupCommand } from './backup.command.js';
import { badgeCommand } from './badge.command.js';
import { calendarCommand } from './calendar.command.js';
import { CliError, CliInterrupted } from './cli-error.js';
import { communityCommand } from './community.command.js';
import { createContext, type Output } from './context.js';
import { demoCommand } from './demo.command.js';
import { exportCommand } from './export.command.js';
import { groupCommand } from './group.command.js';
import { importCommand, type ImportStreams } from './import.command.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { migrateCommand } from './migrate.command.js';
import { operatorCommand } from './operator.command.js';
import { isBrokenPipe } from './output.js';
import { pullCommand } from './pull.command.js';
import { lumaCommand } from './luma.command.js';
import { serveCommand } from './serve.command.js';
import { slackCommand } from './slack.command.js';
import { startCommand } from './start.command.js';
import { tokenCommand } from './token.command.js';
import { webhookCommand } from './webhook.command.js';

/** The streams of a run: stdin and stdout for `import -` and `export`, stderr for progress. */
export interface CliStreams extends ImportStreams {
  stdout: Writable;
}

const defaultIo: Output = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** The version of the package (src/cli and dist/cli both sit two folders below package.json). */
function version(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string'
    ? pkg.version
    : 'unknown';
}

/** Runs the command line; returns the exit code. `clock` dates what the commands write (tests fix it). */
export async function main(
  argv: string[],
  io: Output = defaultIo,
  env: NodeJS.ProcessEnv = process.env,
  streams: CliStreams = { stdin: process.stdin, stdout: process.stdout, progress: process.stderr },
  clock: Clock = systemClock,
): Promise<number> {
  const ctx = createContext(env, io, clock);
  const program = new Command('hearth')
    .description('Hearth: the community administration API server')
    .version(version(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  startCommand(program, ctx, streams.progress);
  serveCommand(program, ctx);
  migrateCommand(program, ctx);
  backupCommand(program, ctx);
  communityCommand(program, ctx);
  tokenCommand(program, ctx);
  importCommand(program, ctx, streams);
  exportCommand(program, ctx, streams.stdout);
  pullCommand(program, ctx);
  lumaCommand(program, ctx);
  slackCommand(program, ctx, streams.progress);
  demoCommand(program, ctx, streams.progress);
  auditCommand(program, ctx);
  badgeCommand(program, ctx);
  groupCommand(program, ctx);
  webhookCommand(program, ctx);
  calendarCommand(program, ctx, streams.progress);
  operatorCommand(program, ctx);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    // The reader of our output went away (`hearth export | head`): it has what it wanted.
    if (isBrokenPipe(error)) return 0;
    if (error instanceof CliInterrupted) {
      io.err(error.message);
      return error.exitCode;
    }
    const { ConfigError } = await import('../config.js');
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    io.err(`hearth: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}
