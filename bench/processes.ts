// Starting and stopping the processes under test: Hearth (the compiled build) and the bare baseline server.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const hearthBin = join(repoRoot, 'bin', 'hearth.js');

export interface Service {
  readonly pid: number;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('The process did not start');
  return child.pid;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits or times out first. */
function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const source = child[stream];
    if (!source) return reject(new Error(`No ${stream} to read`));
    const timer = setTimeout(
      () => finish(new Error(`Timed out after ${timeoutMs} ms waiting for ${pattern}; output so far:\n${seen}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) finish(null, match);
    };
    const onExit = (code: number | null) =>
      finish(new Error(`Exited (${code}) before printing ${pattern}; output:\n${seen}`));
    function finish(error: Error | null, match?: RegExpExecArray) {
      clearTimeout(timer);
      source?.off('data', onData);
      child.off('exit', onExit);
      if (error || !match) reject(error ?? new Error('no match'));
      else resolve(match);
    }
    source.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Runs the compiled `hearth` command to completion and returns its stdout; throws with stderr on failure. */
export function runHearth(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hearthBin, ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`hearth ${args.join(' ')} exited ${code}:\n${err}${out}`)),
    );
  });
}

/** `hearth serve` on the corpus, on a free port, logging only warnings, with the rate limit out of the way. */
export async function startHearth(databasePath: string): Promise<Service> {
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databasePath, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000000' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const pid = pidOf(child);
  const stop = stopper(child);
  try {
    const match = await waitForOutput(child, 'stderr', /Hearth serving (http:\/\/[^/\s]+)\/admin\/v0/, 180_000);
    // Warnings and errors still reach the terminal.
    child.stderr?.pipe(process.stderr);
    return { pid, baseUrl: match[1] ?? '', stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Compiles baseline-server.ts to plain JavaScript, so the baseline runs on bare Node like the compiled Hearth. */
export function compiledBaseline(): string {
  const source = readFileSync(fileURLToPath(new URL('./baseline-server.ts', import.meta.url)), 'utf8');
  const output = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = join(tmpdir(), `hearth-bench-baseline-${process.pid}.mjs`);
  writeFileSync(file, output.outputText);
  return file;
}

export interface BaselineService extends Service {
  /** Sets the size of the body every later answer carries. */
  setBodyBytes(bytes: number): Promise<void>;
}

export async function startBaseline(): Promise<BaselineService> {
  const file = compiledBaseline();
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = pidOf(child);
  const stopChild = stopper(child);
  const stop = async () => {
    await stopChild();
    rmSync(file, { force: true });
  };
  try {
    const match = await waitForOutput(child, 'stdout', /\{"port":(\d+)\}/, 30_000);
    const baseUrl = `http://127.0.0.1:${match[1] ?? ''}`;
    return {
      pid,
      baseUrl,
      stop,
      async setBodyBytes(bytes) {
        const response = await fetch(`${baseUrl}/__bench/size/${Math.round(bytes)}`, { method: 'PUT' });
        if (response.status !== 204) throw new Error(`Baseline refused the body size: ${response.status}`);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
