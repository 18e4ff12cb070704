// A copy of a PostgreSQL store made by pg_dump (custom format, restored with pg_restore), written to an open file;
// the password goes to pg_dump in its environment, never on a command line that others on the machine can read.
import { spawn } from 'node:child_process';

/** pg_dump is not installed where the command looks for it (PATH). */
export class PgDumpMissingError extends Error {}

/** Runs pg_dump on `databaseUrl`, its output into `fd`; `env` is its environment (PATH, PGSSLROOTCERT, …). */
export async function dumpPostgres(databaseUrl: string, fd: number, env: NodeJS.ProcessEnv): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const child = spawn('pg_dump', ['--format=custom', '--no-password', `--dbname=${url}`], {
    env: password === '' ? env : { ...env, PGPASSWORD: password },
    stdio: ['ignore', fd, 'pipe'],
  });
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (said.length < 4000) said += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new PgDumpMissingError('pg_dump is not on PATH') : error),
    );
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`pg_dump failed (exit ${code ?? 'by a signal'}): ${said.trim()}`);
}
