// Drives the real app (the same buildApp as production) over a fresh store, with helpers to create
// communities, tokens and data through the real import path.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import type { Scope } from '../../src/tokens/scopes.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { localCounter } from '../../src/http/shared-counter.js';
import { importLines, type ImportSummary } from '../../src/import/import.service.js';
import { attachContract } from './contract.js';
import { seedCommunity, type Seeded, type TokenOptions } from './seed.js';
import { createTestStore, type TestStore } from './test-store.js';

export interface TestApp {
  app: FastifyInstance;
  testStore: TestStore;
  /** Current time seen by the app; tests may move it. */
  clock: { now: number };
  /** With `manualRateWindows`: ends every rate-limit window, as a second passing would. */
  nextRateWindow(): void;
  community(slug: string): Promise<string>;
  /** The common setup: a community holding `records`, and a token of it with `scopes` (`read` by default). */
  seed(slug: string, records?: object[], scopes?: Scope[]): Promise<Seeded>;
  token(communityId: string, scopes?: Scope[], options?: TokenOptions): Promise<string>;
  importRecords(communityId: string, records: object[]): Promise<ImportSummary>;
  get(path: string, token: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    now?: number;
    config?: Partial<Config>;
    logger?: object;
    /**
     * Rate-limit windows that end only at `nextRateWindow()`, not after a real second: a test that counts requests
     * against a limit then holds on a machine too loaded to send them within one second.
     */
    manualRateWindows?: boolean;
  } = {},
): Promise<TestApp> {
  const testStore = await createTestStore();
  const { store } = testStore;
  const clock = { now: options.now ?? Date.parse('2026-03-10T12:00:00Z') };
  // The app's one clock, also for what the tests create beside it.
  const now = () => clock.now;
  const config = loadConfig(
    {},
    { databaseUrl: testStore.url, rateLimitPerSecond: 10_000, authFailuresPerSecond: 10_000, ...options.config },
  );
  const windows = { now: 0 };
  const requestCounter =
    options.manualRateWindows && !config.redisUrl ? () => localCounter(1000, () => windows.now) : undefined;
  const app = await buildApp(config, {
    store,
    clock: now,
    logger: options.logger ?? false,
    ...(requestCounter ? { requestCounter } : {}),
  });
  // The production app, plus one read-only hook: every answer is checked against the OpenAPI document.
  attachContract(app);
  await app.ready();
  const communities = createCommunitiesService(store.db, store.dialect, now);
  const tokens = createTokensService(store.db, now);

  return {
    app,
    testStore,
    clock,
    nextRateWindow: () => {
      windows.now += 1000;
    },
    community: async (slug) => (await communities.create(slug, slug)).id,
    seed: (slug, records, scopes) => seedCommunity(store, slug, { records, scopes, clock: now, writes: app.writes }),
    token: async (communityId, scopes = ['read'], opts = {}) =>
      (await tokens.create(communityId, { scopes, ...opts })).secret,
    importRecords: (communityId, records) =>
      importLines(
        store,
        communityId,
        records.map((r) => JSON.stringify(r)),
        { clock: now, writes: app.writes },
      ),
    get: (path, token, headers = {}) =>
      app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}`, ...headers } }),
    async close() {
      await app.close();
      await testStore.cleanup();
    },
  };
}
