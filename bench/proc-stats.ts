// Server CPU time and resident memory read from Linux /proc, the way `top` and `ps` see them.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Clock ticks per second of utime/stime; 100 on every common Linux build, asked once. */
const ticksPerSecond = ((): number => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`Unreadable /proc/${pid}/stat`);
  return (utime + stime) / ticksPerSecond;
}

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`No ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Peak resident set size in MB since start or since the last `resetPeakRss`. */
export const peakRssMb = (pid: number): number => statusField(pid, 'VmHWM');
export const rssMb = (pid: number): number => statusField(pid, 'VmRSS');

/**
 * Starts a new peak-RSS window (Linux >= 4.0: writing 5 to clear_refs resets VmHWM to the current RSS).
 * Returns false where that is not allowed; the peak then covers the process's whole life.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
