// Output helpers shared by the commands: `--json` documents, and the end of a pipe whose reader went away.
import type { Output } from './context.js';

/** `--json`: one JSON document on stdout, so that `jq` and scripts read the list whole. */
export function printJson(io: Output, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** The reader of our stdout closed it (`hearth export | head`): nothing is wrong, there is just no one left to write to. */
export function isBrokenPipe(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EPIPE';
}
