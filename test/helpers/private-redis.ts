// A private redis-server on a free port, which a test may stop, restart, freeze and thaw at will.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

export function privateRedisAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

/** Resolves once something accepts connections on the port (or rejects after `timeoutMs`). */
async function accepting(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface PrivateRedis {
  url: string;
  /** Starts the server (again) and resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and resolves when its process has exited. */
  stop(): Promise<void>;
  /** SIGSTOP: the connection stays open and nothing answers. */
  freeze(): void;
  thaw(): void;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await accepting(port);
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      running.kill('SIGCONT');
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
  };
  await redis.start();
  return redis;
}
