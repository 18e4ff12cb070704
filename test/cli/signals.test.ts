// SIGTERM and SIGINT stop the server whichever way it was started: `npx hearth serve` (npm exec runs it under a
// shell that does not pass signals on), `npm start`, and the bin itself; each drains and leaves nothing listening.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, root } from '../helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-signals-'));

beforeAll(async () => {
  ensureBuilt();
  // npm exec links this checkout into its own cache the first time `npx hearth` runs here (a minute on a loaded
  // machine): done once before the timed starts, without blocking this worker's event loop meanwhile.
  await promisify(execFile)('npx', ['hearth', '--version'], { cwd: root, timeout: 170_000 });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ways: Record<string, { command: string; args: string[] }> = {
  'npx hearth serve': { command: 'npx', args: ['hearth', 'serve'] },
  'npm start': { command: 'npm', args: ['start', '--silent', '--', '--quiet'] },
  'bin/hearth.js serve': { command: join(root, 'bin/hearth.js'), args: ['serve'] },
};

async function healthz(port: number): Promise<number | 'refused'> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
  } catch {
    return 'refused';
  }
}

/** The messages Hearth logged (pino's JSON lines on stdout). */
const messages = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

/**
 * Runs a command in its own process group, as a shell's job is, on `port` and a store of its own; its output kept, and
 * `onErr` told of each piece of its standard error as it comes.
 */
function job(command: string, args: string[], port: number, onErr: (err: string) => void = () => {}) {
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    env: { ...process.env, DATABASE_URL: join(dir, `${port}.db`), PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { out: '', err: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output.err += chunk.toString();
    onErr(output.err);
  });
  // 'close' comes once every process holding the child's pipes has exited: npm, its shell and Hearth.
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output, closed };
}

/** Starts Hearth the given way as a job, and waits until it answers. */
async function start(way: string, port: number) {
  const { command, args } = ways[way] ?? { command: '', args: [] };
  const { child, output, closed } = job(command, args, port);
  // Generous: on a loaded machine npm, its shell and Hearth's first start together have taken over a minute.
  const deadline = Date.now() + 120_000;
  for (let last = await healthz(port); last !== 200; last = await healthz(port)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      // Not left running: the whole job (npm, its shell, Hearth) goes.
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      throw new Error(
        `${way} did not start (exit ${child.exitCode}, /healthz ${last}):\n${output.err}\n${output.out.slice(-2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, closed, logged: () => messages(output.out) };
}

describe('signals stop the server', () => {
  it.each(Object.keys(ways))(
    'SIGTERM to the process `%s` started drains and stops the server',
    async (way) => {
      const port = await freePort();
      const { child, closed, logged } = await start(way, port);
      child.kill('SIGTERM');
      const ended = await closed;
      expect(await healthz(port)).toBe('refused');
      const drained = logged().filter((msg) => msg.includes('finishing requests in flight'));
      // npm exec's shell dies of the signal: Hearth notices its launcher gone and drains as on SIGTERM.
      expect(drained).toEqual([
        way === 'npx hearth serve'
          ? 'the process that started Hearth exited: finishing requests in flight'
          : 'shutting down: finishing requests in flight',
      ]);
      // npm hands on the way its child ended: killed by the signal when its shell was, else Hearth's exit 0.
      expect(ended).toEqual(way === 'npx hearth serve' ? { code: null, signal: 'SIGTERM' } : { code: 0, signal: null });
    },
    180_000,
  );

  it.each(Object.keys(ways))(
    'Ctrl-C (SIGINT to the job) under `%s` drains and stops the server, exit 0',
    async (way) => {
      const port = await freePort();
      const { child, closed, logged } = await start(way, port);
      process.kill(-(child.pid ?? 0), 'SIGINT');
      // Hearth exits 0. npm, Ctrl-C'd itself, ends by the signal under npx; under `npm start` it hands on Hearth's
      // exit 0. There the Ctrl-C reaches Hearth twice (from the terminal, and as npm hands it on): npm ending by the
      // signal would say that the copy killed Hearth (see src/lib/stop-signals.ts).
      const ended = await closed;
      expect(ended).toEqual(way === 'npx hearth serve' ? { code: null, signal: 'SIGINT' } : { code: 0, signal: null });
      expect(await healthz(port)).toBe('refused');
      expect(logged().filter((msg) => msg.includes('finishing requests in flight'))).toEqual([
        'shutting down: finishing requests in flight',
      ]);
    },
    180_000,
  );

  // `hearth start` prints its token and curl line after listening, reading the store the drain closes: a Ctrl-C the
  // moment it says it serves lets those lines out, then drains (before, they were cut off, or an error followed).
  it('Ctrl-C as `hearth start` says it serves: the token and curl line still printed, a drain, exit 0', async () => {
    const port = await freePort();
    let sent = false;
    const { child, output, closed } = job(join(root, 'bin/hearth.js'), ['start', '--quiet'], port, (err) => {
      if (!sent && err.includes('Hearth serving')) {
        sent = true;
        process.kill(-(child.pid ?? 0), 'SIGINT');
      }
    });
    expect(await closed).toEqual({ code: 0, signal: null });
    expect(sent).toBe(true);
    const lines = output.out.split('\n');
    const curl = lines.findIndex((line) => line.trimStart().startsWith('curl '));
    expect(curl, output.out).toBeGreaterThanOrEqual(0);
    // The drain is logged at the signal; it closes the store once those lines are out.
    expect(lines.filter((line) => line.includes('shutting down: finishing requests in flight'))).toHaveLength(1);
    expect(output.err.split('\n').filter((line) => /error/i.test(line))).toEqual([]);
    expect(await healthz(port)).toBe('refused');
  }, 180_000);

  it('SIGINT to the bin alone drains and stops the server, exit 0', async () => {
    const port = await freePort();
    const { child, closed } = await start('bin/hearth.js serve', port);
    child.kill('SIGINT');
    expect(await closed).toEqual({ code: 0, signal: null });
    expect(await healthz(port)).toBe('refused');
  }, 180_000);

  it('SIGINT to npm start alone drains and stops the server, exit 0', async () => {
    const port = await freePort();
    const { child, closed } = await start('npm start', port);
    child.kill('SIGINT');
    expect(await closed).toEqual({ code: 0, signal: null });
    expect(await healthz(port)).toBe('refused');
  }, 180_000);

  // A terminal closed under `npm start` hangs up: Hearth drains and ends, instead of spinning on Node 20's exit-time
  // terminal restore (see src/lib/hung-up-terminal.ts). util-linux's `script` gives it a terminal to lose.
  it.runIf(existsSync('/usr/bin/script'))(
    'ends when the terminal npm start runs in is closed',
    async () => {
      const port = await freePort();
      const terminal = spawn('/usr/bin/script', ['-qfc', 'npm start --silent -- --quiet', '/dev/null'], {
        cwd: root,
        detached: true,
        env: { ...process.env, DATABASE_URL: join(dir, `${port}.db`), PORT: String(port), LOG_LEVEL: 'info' },
        stdio: 'ignore',
      });
      const deadline = Date.now() + 120_000;
      while ((await healthz(port)) !== 200) {
        if (Date.now() > deadline) {
          if (terminal.pid !== undefined) process.kill(-terminal.pid, 'SIGKILL');
          throw new Error('npm start in a terminal did not start');
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const hearth = hearthPids(port);
      expect(hearth).toHaveLength(1);
      // The terminal's window is closed: its master side goes away and the session gets SIGHUP.
      terminal.kill('SIGKILL');
      const gone = Date.now() + 20_000;
      while (hearthPids(port).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hearthPids(port)).toEqual([]);
      expect(await healthz(port)).toBe('refused');
    },
    180_000,
  );

  // The hang-up may reach Hearth without a SIGHUP (npm gone first, or a session of its own): whatever then stops it
  // must still end it, not leave it spinning on the terminal restore. `setsid -w` keeps the terminal but not the SIGHUP.
  it.runIf(existsSync('/usr/bin/script') && existsSync('/usr/bin/setsid'))(
    'ends on SIGTERM after its terminal went away without a SIGHUP',
    async () => {
      const port = await freePort();
      const terminal = spawn(
        '/usr/bin/script',
        ['-qfc', `setsid -w ${join(root, 'bin/hearth.js')} serve`, '/dev/null'],
        {
          cwd: root,
          detached: true,
          env: { ...process.env, DATABASE_URL: join(dir, `${port}.db`), PORT: String(port), LOG_LEVEL: 'info' },
          stdio: 'ignore',
        },
      );
      const deadline = Date.now() + 120_000;
      while ((await healthz(port)) !== 200) {
        if (Date.now() > deadline) {
          if (terminal.pid !== undefined) process.kill(-terminal.pid, 'SIGKILL');
          throw new Error('hearth serve in a terminal did not start');
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Hearth itself, not the `setsid -w` waiting for it (by its argv[0]: Node 24 names its main thread MainThread,
      // so the process's comm is no longer `node`).
      const hearth = hearthPids(port).find(
        (pid) => basename(readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0')[0] ?? '') === 'node',
      );
      if (hearth === undefined) {
        // Not left running: the terminal's group, and whatever serves on the port in its own session.
        if (terminal.pid !== undefined) process.kill(-terminal.pid, 'SIGKILL');
        for (const pid of hearthPids(port)) process.kill(pid, 'SIGKILL');
        throw new Error('no hearth process found');
      }
      terminal.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(hearth, 'SIGTERM');
      const gone = Date.now() + 20_000;
      while (hearthPids(port).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 200));
      const left = hearthPids(port);
      // Never leave a server behind, whatever the outcome.
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left).toEqual([]);
      expect(await healthz(port)).toBe('refused');
    },
    180_000,
  );
});

/** The Hearth processes serving on `port` (found by the PORT in their environment). */
function hearthPids(port: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
        return environ.includes(`PORT=${port}`) && cmdline.includes('bin/hearth.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}
