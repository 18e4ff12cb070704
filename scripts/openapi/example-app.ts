// The app the OpenAPI examples are captured from: the production buildApp over a fresh, migrated SQLite file, at a fixed time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { loadConfig, type Config } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore } from '../../src/db/store.js';
import type { Scope } from '../../src/tokens/scopes.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { importLines } from '../../src/import/import.service.js';

/** What capturing needs of an app: the test suite's app (test/helpers/test-app.ts) has the same shape. */
export interface ExampleApp {
  app: FastifyInstance;
  community(slug: string): Promise<string>;
  token(communityId: string, scopes: Scope[]): Promise<string>;
  importRecords(communityId: string, records: object[]): Promise<unknown>;
  close(): Promise<void>;
}

/** The time the examples are answered at, the same as the test suite's. */
const now = Date.parse('2026-03-10T12:00:00Z');

export async function createExampleApp(options: { config?: Partial<Config> } = {}): Promise<ExampleApp> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-openapi-'));
  const databaseUrl = join(dir, 'hearth.db');
  const store = openStore(databaseUrl, 5);
  await migrateToLatest(store.db, store.dialect);
  const config = loadConfig(
    {},
    { databaseUrl, rateLimitPerSecond: 10_000, authFailuresPerSecond: 10_000, ...options.config },
  );
  const app = await buildApp(config, { store, clock: () => now, logger: false });
  await app.ready();
  const communities = createCommunitiesService(store.db, store.dialect);
  const tokens = createTokensService(store.db, () => now);
  return {
    app,
    community: async (slug) => (await communities.create(slug, slug)).id,
    token: async (communityId, scopes) => (await tokens.create(communityId, { scopes })).secret,
    importRecords: (communityId, records) =>
      importLines(
        store,
        communityId,
        records.map((r) => JSON.stringify(r)),
      ),
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
