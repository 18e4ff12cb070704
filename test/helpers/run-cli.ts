// Runs the `hearth` command line in-process with the given environment; returns its exit code, stdout and stderr.
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { Clock } from '../../src/lib/clock.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** `clock` dates what the command writes (the wall clock by default). */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, clock?: Clock): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString().trimEnd()));
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    env,
    {
      progress: new PassThrough(),
      stdin: Readable.from(['']),
      stdout,
    },
    clock,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
