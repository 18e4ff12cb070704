// SQL for the record of import runs: a run's row, the recent runs newest first, and the sums /metrics exports.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, ImportRunsTable } from '../db/database.js';
import { epochOfStored } from '../lib/timestamps.js';

export type ImportRunRow = Selectable<ImportRunsTable>;
export type NewImportRun = Insertable<ImportRunsTable>;

/** The kinds of record an import writes, each a count of the run's row. */
export const IMPORTED_KINDS = ['feeds', 'profiles', 'tags', 'calendar_events', 'posts', 'comments'] as const;
export type ImportedKind = (typeof IMPORTED_KINDS)[number];

export async function insertImportRun(db: Kysely<Database>, run: NewImportRun): Promise<void> {
  await db.insertInto('import_runs').values(run).execute();
}

/** A run as listed: its row and its community's slug. */
export type ListedImportRun = ImportRunRow & { community: string };

/** Newest first (runs begun at one instant in a stable order), of one community or of all. */
export function listImportRuns(
  db: Kysely<Database>,
  filter: { communityId: string | null; limit: number },
): Promise<ListedImportRun[]> {
  let query = db
    .selectFrom('import_runs')
    .innerJoin('communities', 'communities.id', 'import_runs.community_id')
    .selectAll('import_runs')
    .select('communities.slug as community');
  if (filter.communityId !== null) query = query.where('import_runs.community_id', '=', filter.communityId);
  return query
    .orderBy('import_runs.started_at', 'desc')
    .orderBy('import_runs.id', 'desc')
    .limit(filter.limit)
    .execute();
}

/** The runs of one source that ended one way, summed. */
export interface ImportRunGroup {
  source: string;
  outcome: string;
  runs: number;
  /** When the last of them ended, in milliseconds since the epoch. */
  lastFinishedMs: number;
  /** Records written, by kind. */
  kinds: Record<ImportedKind, number>;
  /** Their durations added up. */
  durationSeconds: number;
  /** How many took at most each of the bounds asked for, in their order. */
  within: number[];
}

type Sum = number | string | null;

/**
 * Every run summed by source and outcome, in one pass over the table (one row per import: small), with the counts
 * of a duration histogram whose bucket bounds the caller gives.
 */
export async function importRunGroups(
  db: Kysely<Database>,
  boundsSeconds: readonly number[],
): Promise<ImportRunGroup[]> {
  const rows = await db
    .selectFrom('import_runs')
    .select(['source', 'outcome'])
    .select((eb) => [
      eb.fn.countAll<number | string>().as('runs'),
      eb.fn.max('finished_at').as('last_finished_at'),
      eb.fn.sum<Sum>('duration_ms').as('duration_ms'),
      ...IMPORTED_KINDS.map((kind) => eb.fn.sum<Sum>(kind).as(kind)),
      // Whole milliseconds: at most a bound of 0.1 s is at most 100 ms.
      ...boundsSeconds.map((bound, i) =>
        sql<Sum>`sum(case when duration_ms <= ${sql.lit(Math.floor(bound * 1000))} then 1 else 0 end)`.as(
          `within_${i}`,
        ),
      ),
    ])
    .groupBy(['source', 'outcome'])
    .orderBy('source')
    .orderBy('outcome')
    .execute();
  return rows.map((row) => {
    const sums = row as unknown as Record<string, Sum>;
    return {
      source: row.source,
      outcome: row.outcome,
      runs: Number(row.runs),
      lastFinishedMs: epochOfStored(String(row.last_finished_at)),
      kinds: Object.fromEntries(IMPORTED_KINDS.map((kind) => [kind, Number(sums[kind] ?? 0)])) as Record<
        ImportedKind,
        number
      >,
      durationSeconds: Number(row.duration_ms ?? 0) / 1000,
      within: boundsSeconds.map((_, i) => Number(sums[`within_${i}`] ?? 0)),
    };
  });
}
