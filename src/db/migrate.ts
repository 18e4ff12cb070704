// Versioned migrations, applied in order; the same list serves both stores.
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
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
import { chatReactionsMigration } from './migrations/016-chat-reactions.js';
import { chatAnnouncementsMigration } from './migrations/018-chat-announcements.js';
import { registrationsMigration } from './migrations/020-registrations.js';
import { calendarFeedsMigration } from './migrations/019-calendar-feeds.js';
import { slackInboxMigration } from './migrations/017-slack-inbox.js';
import { operatorsMigration } from './migrations/021-operators.js';
import { searchImpactsMigration } from './migrations/022-search-impacts.js';
import { slackSocketModeMigration } from './migrations/024-slack-socket-mode.js';
import { memberListMigration } from './migrations/025-member-list.js';
import { auditBySubjectMigration } from './migrations/029-audit-by-subject.js';
import { postgresSearchRanksMigration } from './migrations/032-postgres-search-ranks.js';
import { postgresRanksBuildMigration } from './migrations/033-postgres-ranks-build.js';

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
    '016-chat-reactions': chatReactionsMigration(store),
    '017-slack-inbox': slackInboxMigration(store),
    '018-chat-announcements': chatAnnouncementsMigration(store),
    '019-calendar-feeds': calendarFeedsMigration(store),
    '020-registrations': registrationsMigration(store),
    '021-operators': operatorsMigration(store),
    '022-search-impacts': searchImpactsMigration(store),
    // No 023: the number was kept for a PostgreSQL search index (RUM) that was measured and not built.
    '024-slack-socket-mode': slackSocketModeMigration(),
    '025-member-list': memberListMigration(),
    // No 026–028: numbers given to work that needed no migration.
    '029-audit-by-subject': auditBySubjectMigration(),
    // No 030, 031: the same.
    '032-postgres-search-ranks': postgresSearchRanksMigration(store),
    // The next is 034: a store at 033 refuses a lower name.
    '033-postgres-ranks-build': postgresRanksBuildMigration(store),
  };
}

/** The names of this version's migrations, in the order they apply. */
export const migrationNames = (): string[] => Object.keys(migrationsFor('sqlite'));

/** Which of this version's migrations a store holds, which it lacks, and which it holds that this version does not know. */
export interface MigrationState {
  applied: string[];
  pending: string[];
  /** Applied by a newer Hearth: this version cannot serve the store. */
  unknown: string[];
}

/** A store a newer Hearth migrated: refused by every command, the server's start included. */
export class StoreAheadError extends Error {
  constructor(readonly unknown: readonly string[]) {
    super(
      `The store was migrated by a newer version of Hearth: it holds ${unknown.length === 1 ? 'a migration' : 'migrations'} this version does not know (${unknown.join(', ')}). Run that version, or restore a backup taken before it.`,
    );
  }
}

const migrator = (db: Kysely<Database>, dialect: StoreDialect) =>
  new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect.name) } });

/** Reads the store's migrations; writes nothing (a new store is left without Kysely's tables). */
export async function migrationState(db: Kysely<Database>, dialect: StoreDialect): Promise<MigrationState> {
  const known = await migrator(db, dialect).getMigrations();
  const applied = known.filter((m) => m.executedAt !== undefined).map((m) => m.name);
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name);
  // A store holding none of this version's migrations is new; one holding any has the table a newer one's would be in.
  if (applied.length === 0) return { applied, pending, unknown: [] };
  const names = new Set(known.map((m) => m.name));
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}
    order by name`.execute(db);
  return { applied, pending, unknown: rows.map((row) => row.name).filter((name) => !names.has(name)) };
}

/**
 * Applies pending migrations, refusing a store a newer Hearth migrated. Kysely takes a lock table first, so
 * concurrent starts migrate once.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: StoreDialect): Promise<MigrationResultSet> {
  const { unknown } = await migrationState(db, dialect);
  if (unknown.length > 0) throw new StoreAheadError(unknown);
  const result = await migrator(db, dialect).migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
