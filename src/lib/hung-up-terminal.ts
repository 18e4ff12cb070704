// After its terminal hangs up (the window closed, the SSH session dropped), Node 20 at exit tries to restore that
// terminal's settings, fails an internal check and then spins at a quarter of a core forever instead of exiting
// (nodejs/node#51519; later Node releases ignore the failure, nodejs/node#58200). A process whose terminal hung up
// therefore ends, once its stop has run, without that last step.

import { isatty } from 'node:tty';

/**
 * For a process started from a terminal: once that terminal has hung up, whatever then exits the process (the drain
 * finished, a second signal, a timeout) ends it at once instead, past Node's exit-time terminal restore. The stop
 * itself is unchanged: SIGHUP's own listeners still drain the server first.
 */
export function endPastHungUpTerminal(): void {
  const terminals = [0, 1, 2].filter((fd) => isatty(fd));
  if (terminals.length === 0) return;
  let hungUp = false;
  process.prependListener('SIGHUP', () => {
    hungUp = true;
  });
  process.on('exit', () => {
    // 'exit' listeners run inside process.exit(), before Node's own exit handlers: nothing is left to do but end.
    // The hang-up may come without a SIGHUP (the process in a session of its own, or npm gone first): a descriptor
    // that was a terminal and is one no longer (isatty's tcgetattr fails on a hung-up terminal) tells it too.
    if (hungUp || terminals.some((fd) => !isatty(fd))) process.kill(process.pid, 'SIGKILL');
  });
}
