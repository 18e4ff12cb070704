// The record of one import run (import-runs/): begun as the import starts, written once its outcome is known — in
// the import's own transaction when it completes, so that no kill can part the two, and in a small transaction of
// its own after the rollback when it does not.
import type { Kysely } from 'kysely';
import type { Database, ImportOutcome } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { toStored } from '../lib/timestamps.js';
import { IMPORTED_KINDS, insertImportRun, type NewImportRun } from '../import-runs/import-runs.repository.js';
import { ImportError } from './problems.js';

/** What a completed run wrote: records read, and records written by kind. */
export type RunCounts = { records: number } & Record<(typeof IMPORTED_KINDS)[number], number>;

export interface ImportRun {
  /** Records read so far; a run that does not complete keeps how far it got. */
  records: number;
  /** The run completed: its record, written with the import's rows as their transaction's last statement. */
  completed(trx: Kysely<Database>, counts: RunCounts): Promise<void>;
  /**
   * The run ended without committing (`interrupted` when its signal stopped it): its record, in a transaction of
   * its own. Never throws: a store that cannot take it leaves the import's own error to be told.
   */
  ended(db: Kysely<Database>, error: unknown, interrupted: boolean): Promise<void>;
}

/** Kept of an error: its sentence on one line, at most this long. */
const ERROR_CHARS = 200;
/** Kept of an origin: at most this long. */
const ORIGIN_CHARS = 500;

/** `user:secret@` in an address. */
const CREDENTIALS = /(\/\/)[^/\s@]*:[^/\s@]*@/g;

/** An address without its credentials, query or fragment (where tokens hide); anything else (a path) as given. */
export function runOrigin(origin: string): string {
  let url: URL | null = null;
  try {
    url = new URL(origin);
  } catch {
    // A file path: kept as it is.
  }
  if (!url || url.host === '') return origin.slice(0, ORIGIN_CHARS);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString().slice(0, ORIGIN_CHARS);
}

/** An error as the run's record keeps it: one line (its problems one after the other), without credentials, cut short. */
export function runError(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error))
    .replace(CREDENTIALS, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS - 1)}…` : text;
}

const outcomeOf = (error: unknown, interrupted: boolean): ImportOutcome =>
  interrupted ? 'interrupted' : error instanceof ImportError ? 'refused' : 'failed';

/** Starts the record of a run from `source` (`import`, `pull`, `demo`, a connector) into `communityId`. */
export function beginRun(clock: Clock, communityId: string, source: string, origin: string | null): ImportRun {
  const startedAt = toStored(clock());
  const started = performance.now();
  const row = (outcome: ImportOutcome, records: number, error: string | null): NewImportRun => ({
    id: newUuid(),
    community_id: communityId,
    source,
    origin: origin === null ? null : runOrigin(origin),
    started_at: startedAt,
    finished_at: toStored(clock()),
    duration_ms: Math.round(performance.now() - started),
    outcome,
    records,
    feeds: 0,
    profiles: 0,
    tags: 0,
    calendar_events: 0,
    posts: 0,
    comments: 0,
    error,
  });
  return {
    records: 0,
    async completed(trx, counts) {
      await insertImportRun(trx, { ...row('completed', counts.records, null), ...pick(counts) });
    },
    async ended(db, error, interrupted) {
      try {
        // One statement: its own transaction.
        await insertImportRun(db, row(outcomeOf(error, interrupted), this.records, runError(error)));
      } catch {
        // The store that failed the import may refuse this too; the import's error is the one that matters.
      }
    },
  };
}

const pick = (counts: RunCounts) =>
  Object.fromEntries(IMPORTED_KINDS.map((kind) => [kind, counts[kind]])) as Record<
    (typeof IMPORTED_KINDS)[number],
    number
  >;
