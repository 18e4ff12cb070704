// A fresh, migrated store per test file: a temporary SQLite file, or a new PostgreSQL database when
// TEST_DATABASE_URL is set (the whole suite then runs on PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore, type Store } from '../../src/db/store.js';
import { upgradeStore } from '../../src/store-upgrade.js';

export interface TestStore {
  store: Store;
  url: string;
  cleanup(): Promise<void>;
}

export const testDatabaseUrl = process.env['TEST_DATABASE_URL'] || null;

/** Creates an empty database (PostgreSQL) or file (SQLite) and returns its DATABASE_URL. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (testDatabaseUrl) {
    const name = `hearth_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
  return { url: join(dir, 'hearth.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function createTestStore(): Promise<TestStore> {
  const database = await createTestDatabase();
  // Generous deadlines: the suite shares a small machine, and a test's store must not answer 503 for being
  // slow. The outage tests open their stores with the server's own deadlines.
  const store = openStore(database.url, 5, { queryMs: 20_000, acquireMs: 20_000 });
  // As every start does (store-upgrade.ts): migrations, then what they left to render.
  await upgradeStore(store);
  return {
    store,
    url: database.url,
    async cleanup() {
      await store.close();
      await database.drop();
    },
  };
}
