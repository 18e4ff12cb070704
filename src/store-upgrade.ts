// Brings a store up to date before anything serves from it: its migrations, then the renders they left pending.
import { migrateToLatest } from './db/migrate.js';
import type { Store } from './db/store.js';
import { renderPending } from './rendering/pending-renders.js';

export async function upgradeStore(store: Store): Promise<void> {
  await migrateToLatest(store.db, store.dialect);
  // After every migration, so that today's renderer reads the schema it was written for.
  await renderPending(store.db);
}
