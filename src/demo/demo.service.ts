// Filling the demo community through the real import path, and its one token, kept beside a SQLite file so that every run reuses it.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Store } from '../db/store.js';
import { countHoldings } from '../communities/communities.repository.js';
import type { Clock } from '../lib/clock.js';
import { createTokensService } from '../tokens/tokens.service.js';
import { importLines, type ImportSummary } from '../import/import.service.js';
import type { ImportPhase } from '../import/import-phases.js';
import { demoRecords, demoSize } from './demo-records.js';

/** Demos up to this many posts are generated whole first and parsed in this thread (no worker to start). */
const GENERATED_WHOLE = 1000;

export interface DemoFill {
  summary: ImportSummary;
  seconds: number;
}

/**
 * Imports the demo records as one file, all or nothing, generated as the import reads them: into the new, empty
 * community it takes the bulk path (counters from memory, indexes and search built after the rows), as a large
 * `hearth import` does. `onProgress` hears the records read so far, the import's phase (import-phases.ts) and,
 * while reading, the fraction of it done (posts and events read, whose total is known before the first record).
 */
export async function fillDemo(
  store: Store,
  communityId: string,
  options: {
    clock: Clock;
    scale?: number;
    seed: number;
    onProgress?(records: number, fraction: number | null, phase: ImportPhase): void;
  },
): Promise<DemoFill> {
  const started = performance.now();
  const size = demoSize(options.scale);
  const units = Math.max(1, size.posts + size.events);
  let read = 0;
  const lines = function* () {
    for (const record of demoRecords({ now: options.clock(), scale: options.scale, seed: options.seed })) {
      if (record['kind'] === 'post' || record['kind'] === 'calendar_event') read++;
      yield JSON.stringify(record);
    }
  };
  const summary = await importLines(store, communityId, size.posts <= GENERATED_WHOLE ? [...lines()] : lines(), {
    clock: options.clock,
    source: 'demo',
    origin: `seed ${options.seed}${options.scale === undefined ? '' : `, scale ${options.scale}`}`,
    onProgress: (phase, records) => options.onProgress?.(records, phase === 'reading' ? read / units : null, phase),
  });
  return { summary, seconds: (performance.now() - started) / 1000 };
}

/** Records the community holds, by kind, and its token count. */
export function holdings(store: Store, communityId: string): Promise<Record<string, number>> {
  return countHoldings(store.db, communityId);
}

/** Where the demo token of a SQLite store is kept (0600, beside the database); PostgreSQL has no such place. */
export function demoTokenFile(databaseUrl: string, postgres: boolean): string | null {
  const path = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return postgres || path === ':memory:' ? null : `${path}-demo-token`;
}

export type DemoToken = { secret: string; reused: boolean } | { secret: null; tokens: number };

/**
 * The demo token: the kept one while it still works for this community, else a new one (kept for next time).
 * Without a place to keep it, a community that already has tokens gets no new one: secrets are shown only once.
 */
export async function demoToken(
  store: Store,
  communityId: string,
  file: string | null,
  existingTokens: number,
  clock: Clock,
): Promise<DemoToken> {
  const tokens = createTokensService(store.db, clock);
  if (file && existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    const principal = await tokens.authenticate(kept);
    if (principal?.communityId === communityId && principal.scopes.includes('members:write'))
      return { secret: kept, reused: true };
  }
  if (!file && existingTokens > 0) return { secret: null, tokens: existingTokens };
  const created = await tokens.create(communityId, { name: 'demo', scopes: ['read', 'members:write'] });
  if (file) {
    writeFileSync(file, `${created.secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { secret: created.secret, reused: false };
}
