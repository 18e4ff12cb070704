// Child processes for tests: a free port, the compiled build kept fresh, and waiting for a line or an exit.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const root = new URL('../../', import.meta.url).pathname;

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** `npm start` runs the compiled dist/: compile it again when a source is newer (the install compiles it once). */
export function ensureBuilt(): void {
  let built = 0;
  try {
    built = statSync(join(root, 'dist/cli/bin.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (newest(join(root, 'src')) > built)
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
}

/** Collects a child's stdout and stderr, and resolves the first stdout match of `pattern`. */
export function watch(child: ChildProcess) {
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    exited,
    async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (child.exitCode !== null)
          throw new Error(`exited with ${child.exitCode} before ${pattern}:\n${out}\n${err}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
