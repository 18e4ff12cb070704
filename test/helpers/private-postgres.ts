// A private PostgreSQL server in a temporary directory, which a test may stop and start at will.
// It needs the PostgreSQL binaries and, when running as root, the `postgres` system user.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const bin = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((dir) =>
  existsSync(join(dir, 'initdb')),
);

export function privatePostgresAvailable(): boolean {
  if (!bin) return false;
  if (process.getuid?.() !== 0) return true;
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A backend may have ended between listing and signalling it. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  /** SIGSTOP to the server and every backend: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT to the same processes. */
  thaw(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!bin) throw new Error('PostgreSQL binaries not found');
  const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) => {
    const [file, argv] =
      process.getuid?.() === 0
        ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]]
        : [join(bin, command), args];
    execFileSync(file, argv, { stdio: 'ignore' });
  };
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const start = () =>
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
  start();
  // The postmaster's pid is the first line of postmaster.pid; the backends are its children.
  let frozen: number[] = [];
  const serverProcesses = (): number[] => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [postmaster, ...children];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    freeze() {
      frozen = serverProcesses();
      for (const pid of frozen) signal(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) signal(pid, 'SIGCONT');
      frozen = [];
    },
    destroy() {
      for (const pid of frozen) signal(pid, 'SIGCONT');
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
