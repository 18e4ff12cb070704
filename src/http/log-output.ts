// Where and in which form the logs go (LOG_FORMAT): pino's JSON lines, or readable lines for a person at a
// terminal (pino-pretty, formatted in this thread and written at once, so that nothing waits to be flushed at exit).
import type { Config } from '../config.js';

/** What logs are written to: stdout unless told otherwise (tests capture them). */
export interface LogDestination {
  write(text: string): unknown;
  isTTY?: boolean;
}

export type LogForm = 'json' | 'pretty';

/** `auto` is readable on a terminal and JSON anywhere else (a file, a pipe, a log collector). */
export const logFormOf = (format: Config['logFormat'], destination: LogDestination): LogForm =>
  format === 'auto' ? (destination.isTTY === true ? 'pretty' : 'json') : format;

/** Pino's options for `config`'s level in `form`, written to `destination`. */
export async function loggerOptions(config: Config, form: LogForm, destination: LogDestination): Promise<object> {
  const options = { level: config.logLevel, redact: ['req.headers.authorization'] };
  if (form === 'json') return destination === process.stdout ? options : { ...options, stream: destination };
  const { prettyFactory } = await import('pino-pretty');
  // One line each: what a line carries besides its message follows it as JSON; the process and request ids,
  // alike on every line, are left out.
  const pretty = prettyFactory({
    colorize: destination.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,request_id',
    singleLine: true,
  });
  return { ...options, stream: { write: (line: string) => destination.write(pretty(line)) } };
}
