// Importing one NDJSON file into one community, all or nothing.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Store } from '../db/store.js';
import { nowStored } from '../lib/timestamps.js';
import { emptyPlan, parseLine, type ImportPlan } from './import-parse.js';
import { writePlan } from './import-writer.js';

export interface ImportSummary {
  records: number;
  feeds: number;
  profiles: number;
  tags: number;
  calendar_events: number;
  posts: number;
  comments: number;
}

/** Reads every line first (a bad line aborts before anything is written), then writes in one transaction. */
export async function importLines(store: Store, communityId: string, lines: AsyncIterable<string> | Iterable<string>): Promise<ImportSummary> {
  const plan: ImportPlan = emptyPlan();
  const now = nowStored();
  let line = 0;
  for await (const text of lines) parseLine(plan, text, ++line, now);
  await store.db.transaction().execute((trx) => writePlan(trx, communityId, plan));
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

export function importStream(store: Store, communityId: string, input: Readable): Promise<ImportSummary> {
  return importLines(store, communityId, createInterface({ input, crlfDelay: Infinity }));
}
