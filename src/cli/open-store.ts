// How a command opens the store: as it is (`migrate`), upgraded (`start`), or current (every other command: a new
// store is migrated, one behind this version or ahead of it is refused and left untouched).
import type { Store } from '../db/store.js';
import { CliError } from './cli-error.js';

/** Opens the store without the server's query deadline: imports and index builds may run long. */
export async function openStoreAsIs(databaseUrl: string, poolSize: number): Promise<Store> {
  const { batchTimeouts, openStore } = await import('../db/store.js');
  return openStore(databaseUrl, poolSize, batchTimeouts);
}

/** Opens a store, applies pending migrations and renders what they left pending (as a server's start does). */
export async function openMigratedStore(databaseUrl: string, poolSize: number): Promise<Store> {
  const { upgradeStore } = await import('../store-upgrade.js');
  const store = await openStoreAsIs(databaseUrl, poolSize);
  try {
    await upgradeStore(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Makes sure this version can work on the store. A new one (no migration applied) is migrated; one that an older
 * version left behind stops the command before anything is written, so that an upgrade is a step its owner takes
 * (after a backup) rather than a side effect of `hearth token list`; one that a newer version migrated stops it too.
 */
export async function ensureCurrent(store: Store): Promise<void> {
  const [{ StoreAheadError }, { storeState, upgradeStore }] = await Promise.all([
    import('../db/migrate.js'),
    import('../store-upgrade.js'),
  ]);
  const state = await storeState(store);
  if (state.unknown.length > 0) throw new StoreAheadError(state.unknown);
  if (state.applied.length === 0) {
    await upgradeStore(store);
    return;
  }
  if (state.pending.length > 0)
    throw new CliError(
      `The store is behind this version of Hearth (${plural(state.pending.length, 'migration')} pending): back it up with \`hearth backup FILE\`, then run \`hearth migrate\` (\`hearth serve\` also applies them when it starts).`,
    );
  if (state.rendersPending)
    throw new CliError(
      "The store's last migration left records to render again: run `hearth migrate` (`hearth serve` also renders them when it starts).",
    );
}
