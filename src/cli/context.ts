// What every command gets: the config, a migrated store opened on demand, and its output streams.
import type { Config } from '../config.js';
import { migrateToLatest } from '../db/migrate.js';
import { openStore, type Store } from '../db/store.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export class CliError extends Error {}

export interface CliContext {
  config: Config;
  io: Output;
  /** Opens the store (migrated), runs `work`, closes the store. */
  withStore<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

export function createContext(config: Config, io: Output): CliContext {
  return {
    config,
    io,
    async withStore(work) {
      const store = openStore(config.databaseUrl, 2);
      try {
        await migrateToLatest(store.db, store.dialect);
        return await work(store);
      } finally {
        await store.close();
      }
    },
  };
}
