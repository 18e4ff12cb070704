// Notices when the process that started this one has exited, for a server that must not outlive its launcher.
// `npx hearth serve` runs Hearth as `npm exec` → `sh -c 'hearth' serve` → node; npm hands SIGTERM and SIGINT on to
// the shell only, and a shell such as dash dies of it without passing it on, leaving the server behind (PPID 1).

/** How often the parent is looked for: a stop after a signal waits at most this long before draining. */
const POLL_MS = 200;

/** Calls `gone` once when process `pid` no longer exists; returns a function that stops watching. */
export function watchParent(pid: number, gone: () => void, pollMs = POLL_MS): () => void {
  const timer = setInterval(() => {
    if (alive(pid)) return;
    clearInterval(timer);
    gone();
  }, pollMs);
  // Watching never keeps the process alive by itself.
  timer.unref();
  return () => clearInterval(timer);
}

function alive(pid: number): boolean {
  try {
    // Signal 0 sends nothing: it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
