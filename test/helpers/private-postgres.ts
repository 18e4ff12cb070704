// A private PostgreSQL server in a temporary directory, which a test may stop and start at will.
// It needs the PostgreSQL binaries and, when running as root, the `postgres` system user.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

const bin = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((dir) => existsSync(join(dir, 'initdb')));

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

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!bin) throw new Error('PostgreSQL binaries not found');
  const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) => {
    const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    execFileSync(file, argv, { stdio: 'ignore' });
  };
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const start = () => asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
