// Versioned migrations, applied in order; the same list serves both stores.
import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
import type { StoreName } from './migrations/column-types.js';
import { initialMigration } from './migrations/001-initial.js';
import { searchMigration } from './migrations/002-search.js';
import { fragmentsMigration } from './migrations/003-fragments.js';
import { hostedMigration } from './migrations/004-hosted.js';
import { searchTopkMigration } from './migrations/005-search-topk.js';
import { writesWebhooksMigration } from './migrations/006-writes-webhooks.js';
import { bulkImportMigration } from './migrations/007-bulk-import.js';
import { searchPunctuationMigration } from './migrations/008-search-punctuation.js';
import { lz4CompressionMigration } from './migrations/009-lz4-compression.js';
import { pendingRendersMigration } from './migrations/010-pending-renders.js';
import { communityVersionsMigration } from './migrations/011-community-versions.js';
import { importRunsMigration } from './migrations/012-import-runs.js';
import { eventsInUtcMigration } from './migrations/013-events-in-utc.js';
import { slackConnectionsMigration } from './migrations/014-slack-connections.js';
import { badgesGroupsMigration } from './migrations/015-badges-groups.js';

/** Every migration by name, in order: what `migrateToLatest` applies (tests bring a store up to one of them). */
export function migrationsFor(store: StoreName): Record<string, Migration> {
  return {
    '001-initial': initialMigration(store),
    '002-search': searchMigration(store),
    '003-fragments': fragmentsMigration(store),
    '004-hosted': hostedMigration(store),
    '005-search-topk': searchTopkMigration(store),
    '006-writes-webhooks': writesWebhooksMigration(store),
    '007-bulk-import': bulkImportMigration(store),
    '008-search-punctuation': searchPunctuationMigration(store),
    '009-lz4-compression': lz4CompressionMigration(store),
    '010-pending-renders': pendingRendersMigration(),
    '011-community-versions': communityVersionsMigration(),
    '012-import-runs': importRunsMigration(store),
    '013-events-in-utc': eventsInUtcMigration(),
    '014-slack-connections': slackConnectionsMigration(store),
    '015-badges-groups': badgesGroupsMigration(store),
  };
}

/** Applies pending migrations. Kysely takes a lock table first, so concurrent starts migrate once. */
export async function migrateToLatest(db: Kysely<Database>, dialect: StoreDialect): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect.name) },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
