// The `hearth` command line: one program, one subcommand per job, sharing the app's config and store.
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { CommunityError } from '../communities/communities.service.js';
import { auditCommand } from './audit.command.js';
import { communityCommand } from './community.command.js';
import { CliError, createContext, type Output } from './context.js';
import { demoCommand } from './demo.command.js';
import { serveCommand } from './serve.command.js';
import { tokenCommand } from './token.command.js';
import { transferCommands, type TransferStreams } from './transfer.command.js';

const defaultIo: Output = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** Runs the command line; returns the exit code. */
export async function main(
  argv: string[],
  io: Output = defaultIo,
  env: NodeJS.ProcessEnv = process.env,
  streams: TransferStreams = { stdin: process.stdin, stdout: process.stdout },
): Promise<number> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
  const ctx = createContext(config, io);
  const program = new Command('hearth')
    .description('Hearth: the community administration API server')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  serveCommand(program, ctx);
  communityCommand(program, ctx);
  tokenCommand(program, ctx);
  transferCommands(program, ctx, streams);
  demoCommand(program, ctx);
  auditCommand(program, ctx);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError || error instanceof CommunityError) {
      io.err(`hearth: ${error.message}`);
      return 1;
    }
    io.err(`hearth: ${(error as Error).message}`);
    return 1;
  }
}
