// Runs one load job in a child process and measures the server while it runs: CPU per request and peak memory.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadOutcome } from './load.js';
import { cpuSeconds, peakRssMb, resetPeakRss } from './proc-stats.js';
import type { LoadFigures } from './results.js';

const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));
let jobs = 0;

/**
 * How long past its own warm-up and measured window a load job may run before it counts as stalled: the generator
 * is then killed, and the job measured once more (a second stall fails the run). A stalled job must never hang
 * the run, as one once held a CI run until its time ran out.
 */
const STALL_GRACE_SECONDS = 60;

class StalledLoad extends Error {}

/** Warms up, then measures `serverPid` over exactly the measured window of the load. */
export async function measure(job: LoadJob, serverPid: number): Promise<LoadFigures> {
  try {
    return await measureOnce(job, serverPid);
  } catch (error) {
    if (!(error instanceof StalledLoad)) throw error;
    console.warn(`  (${error.message}; measuring it once more)`);
    return measureOnce(job, serverPid);
  }
}

async function measureOnce(job: LoadJob, serverPid: number): Promise<LoadFigures> {
  const file = join(tmpdir(), `hearth-bench-job-${process.pid}-${jobs++}.json`);
  writeFileSync(file, JSON.stringify(job));
  const child = spawn(process.execPath, ['--import', 'tsx', loadScript, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const limitSeconds = job.warmupSeconds + job.durationSeconds + STALL_GRACE_SECONDS;
  let stalled = false;
  const watchdog = setTimeout(() => {
    stalled = true;
    child.kill('SIGKILL');
  }, limitSeconds * 1000);
  try {
    let cpuBefore = 0;
    let cpuAfter = 0;
    let outcome: LoadOutcome | null = null;
    for await (const line of createInterface({ input: child.stdout })) {
      if (line === 'ready') {
        resetPeakRss(serverPid);
        cpuBefore = cpuSeconds(serverPid);
        child.stdin.end('go\n');
      } else if (line.startsWith('result ')) {
        cpuAfter = cpuSeconds(serverPid);
        outcome = JSON.parse(line.slice('result '.length)) as LoadOutcome;
      }
    }
    const code = await exited;
    if (stalled)
      throw new StalledLoad(`the load generator against ${job.baseUrl} did not finish within ${limitSeconds} s`);
    if (!outcome || code !== 0) throw new Error(`The load generator failed (exit ${code})`);
    const cpu = cpuAfter - cpuBefore;
    return {
      rps: outcome.requests / outcome.seconds,
      requests: outcome.requests,
      non2xx: outcome.non2xx,
      shed: outcome.shed,
      errors: outcome.errors,
      p50Ms: outcome.p50Ms,
      p95Ms: outcome.p95Ms,
      p99Ms: outcome.p99Ms,
      cpuPerRequestUs: outcome.requests > 0 ? (cpu / outcome.requests) * 1e6 : Number.NaN,
      cpuCores: cpu / outcome.seconds,
      peakRssMb: peakRssMb(serverPid),
    };
  } finally {
    clearTimeout(watchdog);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(file, { force: true });
  }
}
