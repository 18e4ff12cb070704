// What every command gets: the config and a migrated store, both loaded only when a command runs (so `--help` stays fast), and its output streams.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { systemClock, type Clock } from '../lib/clock.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when progress may be drawn as a bar (stderr is a terminal). */
  interactive?: boolean;
}

export class CliError extends Error {}

/** A command stopped by Ctrl-C once it has cleaned up: its message is said as it is, and the exit code is 130. */
export class CliInterrupted extends CliError {}

export interface CliContext {
  io: Output;
  /** The one clock of every service a command builds (the wall clock; tests may fix it). */
  clock: Clock;
  /** The configuration read from the environment (a ConfigError names a bad variable). */
  config(): Promise<Config>;
  /**
   * The process a server stops with, as on SIGTERM: set when npm started this one (`npx hearth serve`,
   * `npm start`), whose signals may not reach it (see lib/parent-watch.ts); unset otherwise, so that
   * `nohup hearth serve &` outlives its shell.
   */
  launcherPid: number | undefined;
  /** Opens the store (migrated), runs `work`, closes the store. */
  withStore<T>(work: (store: Store, config: Config) => Promise<T>): Promise<T>;
}

export function createContext(env: NodeJS.ProcessEnv, io: Output, clock: Clock = systemClock): CliContext {
  let loaded: Config | undefined;
  const config = async () => {
    if (!loaded) {
      const { loadConfig } = await import('../config.js');
      loaded = loadConfig(env);
    }
    return loaded;
  };
  return {
    io,
    clock,
    config,
    // npm sets npm_lifecycle_event in the environment of every script and `npm exec` it runs.
    launcherPid: env['npm_lifecycle_event'] === undefined ? undefined : process.ppid,
    async withStore(work) {
      const current = await config();
      const store = await openMigratedStore(current.databaseUrl, 2);
      if (store.tightened.length > 0) {
        const { describeModeChanges, TIGHTENED_MESSAGE } = await import('../db/sqlite-file-modes.js');
        io.err(`${TIGHTENED_MESSAGE} (${describeModeChanges(store.tightened)})`);
      }
      try {
        return await work(store, current);
      } finally {
        await store.close();
      }
    },
  };
}

/** Opens a store, applies pending migrations and renders what they left pending; closes it again when that fails. */
export async function openMigratedStore(databaseUrl: string, poolSize: number): Promise<Store> {
  const [{ batchTimeouts, openStore }, { upgradeStore }] = await Promise.all([
    import('../db/store.js'),
    import('../store-upgrade.js'),
  ]);
  // The command line's imports and index builds may run long: no query deadline here.
  const store = openStore(databaseUrl, poolSize, batchTimeouts);
  try {
    await upgradeStore(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
