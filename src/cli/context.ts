// What every command gets: the config and a store, both loaded only when a command runs (so `--help` stays fast), its
// output streams, and the environment of the programs it runs.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { systemClock, type Clock } from '../lib/clock.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when progress may be drawn as a bar (stderr is a terminal). */
  interactive?: boolean;
}

/** How `withStore` opens the store: `current` refuses one behind or ahead of this version; `as-is` opens any. */
export type StoreOpening = 'current' | 'as-is';

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
  /** The environment of a program the command runs (`pg_dump`): the command's own, `.env` included. */
  programEnv: NodeJS.ProcessEnv;
  /** Opens the store (by default only one at this version: see open-store.ts), runs `work`, closes the store. */
  withStore<T>(work: (store: Store, config: Config) => Promise<T>, opening?: StoreOpening): Promise<T>;
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
    programEnv: env,
    async withStore(work, opening = 'current') {
      const current = await config();
      const { ensureCurrent, openStoreAsIs } = await import('./open-store.js');
      const store = await openStoreAsIs(current.databaseUrl, 2);
      try {
        if (store.tightened.length > 0) {
          const { describeModeChanges, TIGHTENED_MESSAGE } = await import('../db/sqlite-file-modes.js');
          io.err(`${TIGHTENED_MESSAGE} (${describeModeChanges(store.tightened)})`);
        }
        if (opening === 'current') await ensureCurrent(store);
        return await work(store, current);
      } finally {
        await store.close();
      }
    },
  };
}
