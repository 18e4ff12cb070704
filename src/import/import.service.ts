// Importing one NDJSON file into one community, all or nothing. Its stages, each a file prefix in this folder:
// read-lines, parse-*, derive-* (in a worker thread), check-*, write-*, search-load-*, announce-webhooks; the
// format (records.ts), the plan (plan.ts) and the problems (problems.ts) are shared by them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Store } from '../db/store.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { toStored } from '../lib/timestamps.js';
import { loadResolverTables } from '../references/derive.js';
import type { ChunkResult, FinishResult } from './derive-chunks.js';
import { parseLine, type ParseOptions } from './parse-line.js';
import { emptyPlan, noneNamed, type ImportPlan } from './plan.js';
import { ImportError, maxProblems, type ImportProblem } from './problems.js';
import { chunkSource, type ChunkSource } from './derive-thread.js';
import { linesOf } from './read-lines.js';
import { importStoreFor } from './write-store.js';
import { ImportStream, isEmptyCommunity } from './write-chunks.js';
import { sourceActor, type WriteSource } from '../writes/actor.js';
import { createWriteRunner, type Change, type WriteRunner } from '../writes/write-runner.js';
import { refreshFragments } from '../rendering/fragment-refresh.js';
import { importWebhooks } from './announce-webhooks.js';
import { checkIndex, checkPlan, type PlanIndex } from './check-in-store.js';
import type { ImportPhase } from './import-phases.js';
import { beginRun, type ImportRun } from './import-run.js';
import { untilAborted } from '../lib/abortable.js';

export interface ImportSummary {
  records: number;
  feeds: number;
  profiles: number;
  tags: number;
  calendar_events: number;
  posts: number;
  comments: number;
  badges: number;
  groups: number;
}

/** A hook for showing progress; the import calls it and knows nothing else of who listens. */
export interface ImportProgress {
  /**
   * `records` read so far in `phase` (import-phases.ts): while reading, after every chunk of about 1,000 lines and
   * once when all are read; then once as each later phase begins.
   */
  onProgress?(phase: ImportPhase, records: number): void;
}

const REPORT_EVERY = 1000;

export interface ImportOptions extends ParseOptions, ImportProgress {
  /** Validates the whole file, links and e-mails included, and writes nothing. */
  dryRun?: boolean;
  /** Dates what the file leaves undated and the import's webhook messages; the wall clock by default. */
  clock?: Clock;
  /**
   * The process's write runner, whose commit drops its cached answers and wakes its dispatcher; a command-line
   * import, with nobody in its process to tell, runs on a runner of its own by default.
   */
  writes?: WriteRunner;
  /** Who the audit record names as the writer, and the run's record as its source: `import` by default. */
  source?: WriteSource;
  /** What the run's record names as read: a file, an address (kept without credentials); none by default. */
  origin?: string;
  /** Stops the import before it commits: everything rolls back, and the run is recorded as interrupted. */
  signal?: AbortSignal;
  /** The caller's own rows (a connector's), written in the import's transaction once its records are; never in a dry run. */
  alongside?(trx: Kysely<Database>, change: Change): Promise<void>;
}

/** Lines per chunk: the worker parses one while the store writes the one before. */
const CHUNK_LINES = 1000;
/** Bytes per block of a stream: about as many lines as CHUNK_LINES. */
const BLOCK_BYTES = 1 << 20;
/** Inputs given whole and smaller than this are parsed in this thread: a worker's start-up would cost more. */
const INLINE_BELOW = 5000;

/** Thrown inside the transaction to roll it back once a line was refused; the report is made after. */
class Refused extends Error {}

/** Hands the input to the chunk source piece by piece; `send` writes the piece before while the next is parsed. */
type Feed = (source: ChunkSource, send: (next: Promise<ChunkResult>) => Promise<void>) => Promise<void>;

/** Lines given one by one: sent in runs of CHUNK_LINES. */
function feedLines(lines: AsyncIterable<string> | Iterable<string>, signal: AbortSignal | undefined): Feed {
  return async (source, send) => {
    let batch: string[] = [];
    let line = 0;
    for await (const text of untilAborted(lines, signal)) {
      line++;
      batch.push(text);
      if (batch.length >= CHUNK_LINES) {
        await send(source.add(batch, line - batch.length + 1));
        batch = [];
      }
    }
    if (batch.length > 0) await send(source.add(batch, line - batch.length + 1));
  };
}

/** A byte stream: sent in blocks of about BLOCK_BYTES, split into lines where they are parsed. */
function feedBlocks(input: AsyncIterable<Uint8Array | string>, signal: AbortSignal | undefined): Feed {
  return async (source, send) => {
    let parts: Uint8Array[] = [];
    let size = 0;
    const flush = () => {
      // One copy into a block of its own, whose memory then moves to the worker.
      const block = new Uint8Array(size);
      let at = 0;
      for (const part of parts) {
        block.set(part, at);
        at += part.length;
      }
      parts = [];
      size = 0;
      return send(source.addBlock(block));
    };
    for await (const piece of untilAborted(input, signal)) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
      parts.push(bytes);
      size += bytes.length;
      if (size >= BLOCK_BYTES) await flush();
    }
    if (size > 0) await flush();
    await send(source.endBlocks());
  };
}

/**
 * Reads the lines chunk by chunk: a worker thread parses, checks and derives each while the store writes the
 * one before, all in one transaction. A refused line stops the writing; every further line is still checked
 * (up to `maxProblems` problems), then the transaction is rolled back and every problem of the file reported,
 * links and e-mails included, as if nothing had been written. The search index is loaded in one pass after the
 * rows (on PostgreSQL into an empty community), and the comment counters of posts new to the store come from
 * memory. `dryRun` checks and writes nothing.
 */
export function importLines(
  store: Store,
  communityId: string,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  if (options.dryRun) return checkOnly(store, communityId, lines, options);
  const inline = Array.isArray(lines) && lines.length < INLINE_BELOW;
  return runImport(store, communityId, feedLines(lines, options.signal), inline, options);
}

/** importLines for an NDJSON byte stream (a file, stdin): its bytes go to the worker, which splits the lines. */
export function importStream(
  store: Store,
  communityId: string,
  input: AsyncIterable<Uint8Array | string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  if (options.dryRun) return checkOnly(store, communityId, linesOf(input), options);
  return runImport(store, communityId, feedBlocks(input, options.signal), false, options);
}

/** Writes the import and its run's record, whatever the outcome; then, once it committed, the store's upkeep. */
async function runImport(
  store: Store,
  communityId: string,
  feed: Feed,
  inline: boolean,
  options: ImportOptions,
): Promise<ImportSummary> {
  const run = beginRun(options.clock ?? systemClock, communityId, options.source ?? 'import', options.origin ?? null);
  let summary: ImportSummary;
  try {
    summary = await writeImport(store, communityId, feed, inline, options, run);
  } catch (error) {
    await run.ended(store.db, error, options.signal?.aborted === true);
    throw error;
  }
  await importStoreFor(store.dialect).afterCommit(store.db, summary.records);
  return summary;
}

async function writeImport(
  store: Store,
  communityId: string,
  feed: Feed,
  inline: boolean,
  options: ImportOptions,
  run: ImportRun,
): Promise<ImportSummary> {
  const clock = options.clock ?? systemClock;
  const db = store.db;
  const imports = importStoreFor(store.dialect);
  const empty = await isEmptyCommunity(db, communityId);
  const source = chunkSource(
    {
      now: toStored(clock()),
      readsBack: imports.readsBack,
      communityId,
      empty,
      resolver: await loadResolverTables(db, communityId),
      ignoreUnknown: options.ignoreUnknown,
    },
    inline,
  );
  /** What only the store can check of the whole file; the lines naming a record are asked of the worker if it lacks one. */
  const indexOf = (result: FinishResult): PlanIndex => ({
    unresolved: result.unresolved,
    emails: result.emails,
    linesOf: (keys) => source.linesOf(keys),
  });
  const problems: ImportProblem[] = [];
  const storeProblems: ImportProblem[] = [];
  let finished: FinishResult | null = null;
  let records = 0;
  /** Between the import's steps: a signal that aborted stops it there, rolling everything back. */
  const goOn = () => options.signal?.throwIfAborted();
  const writes = options.writes ?? createWriteRunner(db, clock, refreshFragments);
  const actor = sourceActor(communityId, options.source ?? 'import');
  try {
    await writes.run(
      actor,
      async (trx, change) => {
        const buildIndexes = empty ? await imports.deferIndexes(trx) : null;
        const indexSearch = await imports.deferSearch(trx, communityId, empty);
        const webhooks = await importWebhooks(trx, change);
        const writer = new ImportStream(trx, change, communityId, empty, webhooks);
        const settle = async (result: ChunkResult) => {
          goOn();
          for (const [line, field] of result.ignored) options.onIgnored?.(line, field);
          records += result.records;
          run.records = records;
          if (result.problems.length > 0) {
            problems.push(...result.problems);
            if (problems.length >= maxProblems) throw new ImportError(problems.slice(0, maxProblems), '', true);
          }
          if (result.rows && problems.length === 0 && storeProblems.length === 0)
            storeProblems.push(...(await writer.write(result.rows)));
          options.onProgress?.('reading', records);
        };
        let pending: Promise<ChunkResult> | null = null;
        await feed(source, async (next) => {
          // The worker parses this chunk while the one before is written.
          if (pending) await settle(await pending);
          pending = next;
        });
        if (pending) await settle(await pending);
        finished = await source.finish();
        options.onProgress?.('reading', records);
        if (problems.length > 0 || storeProblems.length > 0) throw new Refused();
        goOn();
        options.onProgress?.('checking', records);
        // The worker's memory (the file's ids, the lines naming records it does not define) goes before the indexes,
        // the fragments and the search load, the import's largest allocations: at once when every record the file
        // names is in it (into an empty community, nearly always), else once the store has found them all.
        if (noneNamed(finished.unresolved)) await source.close();
        // Links first: on PostgreSQL the foreign keys dropped with the indexes are checked again as they are made.
        await writer.check(indexOf(finished));
        await source.close();
        goOn();
        options.onProgress?.('indexing', records);
        await buildIndexes?.();
        await imports.afterRows(trx, records);
        goOn();
        options.onProgress?.('rendering', records);
        await writer.finish(finished);
        options.onProgress?.('searching', records);
        await indexSearch();
        goOn();
        await options.alongside?.(trx, change);
        await run.completed(trx, summaryOf(records, finished));
        options.onProgress?.('committing', records);
      },
      { transaction: (trx, work) => imports.transaction(trx, work) },
    );
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    const result = finished as FinishResult | null;
    const all = [...problems, ...(result ? await checkIndex(db, communityId, indexOf(result)) : [])];
    // An e-mail the store gave to another profile part-way through the file, though the whole file would not.
    if (all.length === 0) all.push(...storeProblems);
    all.sort((a, b) => a.line - b.line);
    throw new ImportError(all.slice(0, maxProblems), '', all.length > maxProblems);
  } finally {
    await source.close();
  }
  return summaryOf(records, finished);
}

function summaryOf(records: number, finished: FinishResult | null): ImportSummary {
  const counts = finished?.counts;
  return {
    records,
    feeds: counts?.feeds ?? 0,
    profiles: counts?.profiles ?? 0,
    tags: counts?.tags ?? 0,
    calendar_events: counts?.calendar_events ?? 0,
    posts: counts?.posts ?? 0,
    comments: counts?.comments ?? 0,
    badges: counts?.badges ?? 0,
    groups: counts?.groups ?? 0,
  };
}

/** The dry run: reads every line, then checks what only the store can tell; writes nothing. */
async function checkOnly(
  store: Store,
  communityId: string,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions,
): Promise<ImportSummary> {
  const plan: ImportPlan = emptyPlan();
  const now = toStored((options.clock ?? systemClock)());
  const problems: ImportProblem[] = [];
  let line = 0;
  for await (const text of untilAborted(lines, options.signal)) {
    try {
      parseLine(plan, text, ++line, now, options);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      problems.push(...error.problems);
      if (problems.length >= maxProblems) throw new ImportError(problems.slice(0, maxProblems), '', true);
    }
    if (line % REPORT_EVERY === 0) options.onProgress?.('reading', plan.records);
  }
  options.onProgress?.('reading', plan.records);
  options.onProgress?.('checking', plan.records);
  const all = [...problems, ...(await checkPlan(store.db, communityId, plan))].sort((a, b) => a.line - b.line);
  if (all.length > 0) throw new ImportError(all.slice(0, maxProblems), '', all.length > maxProblems);
  return {
    records: plan.records,
    feeds: plan.feeds.size,
    profiles: plan.profiles.size,
    tags: plan.tags.size,
    calendar_events: plan.events.size,
    posts: plan.posts.size,
    comments: plan.comments.size,
    badges: plan.badges.size,
    groups: plan.groups.size,
  };
}
