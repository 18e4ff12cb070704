// Importing one NDJSON file into one community, all or nothing.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Store } from '../db/store.js';
import { nowStored } from '../lib/timestamps.js';
import { emptyPlan, ImportError, maxProblems, parseLine, type ImportPlan, type ImportProblem, type ParseOptions } from './import-parse.js';
import { checkPlan, writePlan } from './import-writer.js';

export interface ImportSummary {
  records: number;
  feeds: number;
  profiles: number;
  tags: number;
  calendar_events: number;
  posts: number;
  comments: number;
}

/** Hooks for showing progress; the import calls them and knows nothing else of who listens. */
export interface ImportProgress {
  /** Records read and checked so far: every 1,000 lines, and once when all are read. */
  onRead?(records: number): void;
  /** The write of all `records` in one transaction begins. */
  onWrite?(records: number): void;
}

const REPORT_EVERY = 1000;

export interface ImportOptions extends ParseOptions, ImportProgress {
  /** Validates the whole file, links and e-mails included, and writes nothing. */
  dryRun?: boolean;
}

/**
 * Reads every line first, noting every bad one (up to `maxProblems`), then checks what only the store can
 * tell (links, e-mails); any problem aborts with all of them before anything is written. A good file is
 * written in one transaction, or, with `dryRun`, not at all.
 */
export async function importLines(
  store: Store,
  communityId: string,
  lines: AsyncIterable<string> | Iterable<string>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const plan: ImportPlan = emptyPlan();
  const now = nowStored();
  const problems: ImportProblem[] = [];
  let line = 0;
  for await (const text of lines) {
    try {
      parseLine(plan, text, ++line, now, options);
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      problems.push(...error.problems);
      if (problems.length >= maxProblems) throw new ImportError(problems.slice(0, maxProblems), '', true);
    }
    if (line % REPORT_EVERY === 0) options.onRead?.(plan.records);
  }
  options.onRead?.(plan.records);
  if (problems.length > 0 || options.dryRun) {
    const all = [...problems, ...(await checkPlan(store.db, communityId, plan))].sort((a, b) => a.line - b.line);
    if (all.length > 0) throw new ImportError(all.slice(0, maxProblems), '', all.length > maxProblems);
  } else {
    options.onWrite?.(plan.records);
    await store.db.transaction().execute((trx) => writePlan(trx, communityId, plan));
    store.localChanges.count++;
  }
  return {
    records: plan.records,
    feeds: plan.feeds.size,
    profiles: plan.profiles.size,
    tags: plan.tags.size,
    calendar_events: plan.events.size,
    posts: plan.posts.size,
    comments: plan.comments.size,
  };
}

export function importStream(store: Store, communityId: string, input: Readable, options: ImportOptions = {}): Promise<ImportSummary> {
  return importLines(store, communityId, createInterface({ input, crlfDelay: Infinity }), options);
}
