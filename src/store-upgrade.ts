// Brings a store up to date before anything serves from it: its migrations, then the renders they left pending; and
// says how far behind (or ahead) a store is without changing it.
import { migrateToLatest, migrationState, type MigrationState } from './db/migrate.js';
import type { Store } from './db/store.js';
import { renderPending } from './rendering/pending-renders.js';
import { buildAllSearchImpacts } from './search/sqlite-search-impacts-build.js';

export interface StoreState extends MigrationState {
  /** Records a migration marked to render again are still waiting for it (an upgrade stopped between the two). */
  rendersPending: boolean;
}

export interface Upgrade {
  /** The migrations this upgrade applied, in order. */
  applied: string[];
  /** Communities whose records it rendered again. */
  rendered: number;
}

export async function upgradeStore(store: Store): Promise<Upgrade> {
  const { results = [] } = await migrateToLatest(store.db, store.dialect);
  // After every migration, so that today's renderer reads the schema it was written for.
  const rendered = await renderPending(store.db);
  // Migration 022 makes SQLite's impact postings' tables; a store that held posts before gets them built here.
  if (store.dialect.name === 'sqlite' && results.some((result) => result.migrationName === '022-search-impacts'))
    await buildAllSearchImpacts(store.db);
  return { applied: results.map((result) => result.migrationName), rendered };
}

/** Reads where the store stands; writes nothing. */
export async function storeState(store: Store): Promise<StoreState> {
  const migrations = await migrationState(store.db, store.dialect);
  // The table of pending renders exists once every migration has applied; until then the upgrade renders anyway.
  const rendersPending =
    migrations.pending.length === 0 &&
    migrations.unknown.length === 0 &&
    (await store.db.selectFrom('pending_renders').select('kind').limit(1).executeTakeFirst()) !== undefined;
  return { ...migrations, rendersPending };
}
