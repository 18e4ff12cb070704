// By-id misses on PostgreSQL read in batches: every id asked in one turn of the event loop, one `= any($1)` statement.
import type { FragmentsTable } from '../db/database.js';
import type { HotStatements } from '../db/hot-statements.js';
import { readBatch, type FragmentRead } from './fragment-reads.js';

interface Waiting {
  resolve: (row: FragmentRead | undefined) => void;
  reject: (error: unknown) => void;
}

/** The ids of one community and kind asked in this turn, each with the requests waiting for it. */
interface Batch {
  readonly communityId: string;
  readonly kind: FragmentsTable['kind'];
  readonly waiting: Map<string, Waiting[]>;
}

export interface FragmentBatches {
  /** `id`'s fragment, or undefined when the community has none, read with the other ids asked in this turn. */
  read(communityId: string, kind: FragmentsTable['kind'], id: string): Promise<FragmentRead | undefined>;
}

/**
 * Ids asked in one turn gather per (community, kind); at the end of the turn (setImmediate, after the turn's I/O
 * callbacks) each batch is one round trip of one prepared statement, the same text for any number of ids, and each
 * request gets its own row or undefined. A failure fails that batch's requests alone. At most one statement per
 * (community, kind) is in flight: ids asked meanwhile gather into the next batch, sent when it answers, so that
 * under load the batches grow instead of the round trips.
 */
export function createFragmentBatches(hot: HotStatements): FragmentBatches {
  let open = new Map<string, Batch>();
  const inFlight = new Set<string>();
  let scheduled = false;

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  function run(key: string, batch: Batch): void {
    inFlight.add(key);
    const ids = [...batch.waiting.keys()];
    Promise.resolve()
      .then(() => readBatch(hot, batch.communityId, batch.kind, ids))
      .then(
        (rows) => {
          const byId = new Map(rows.map((row) => [row.id, row]));
          for (const [id, waiters] of batch.waiting) for (const waiter of waiters) waiter.resolve(byId.get(id));
        },
        (error: unknown) => {
          for (const waiters of batch.waiting.values()) for (const waiter of waiters) waiter.reject(error);
        },
      )
      .finally(() => {
        inFlight.delete(key);
        // The ids that gathered while this one was in flight go at the end of this turn, with this turn's own.
        if (open.has(key)) schedule();
      });
  }

  function flush(): void {
    scheduled = false;
    const waiting = new Map<string, Batch>();
    for (const [key, batch] of open) {
      if (inFlight.has(key)) waiting.set(key, batch);
      else run(key, batch);
    }
    open = waiting;
  }

  return {
    read(communityId, kind, id) {
      // PostgreSQL's text holds no NUL, so no record has such an id; asked in a batch it would fail the whole statement,
      // and with it every other request of the turn.
      if (id.includes('\u0000')) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        const key = `${kind}|${communityId}`;
        let batch = open.get(key);
        if (!batch) {
          batch = { communityId, kind, waiting: new Map() };
          open.set(key, batch);
        }
        const waiters = batch.waiting.get(id);
        if (waiters) waiters.push({ resolve, reject });
        else batch.waiting.set(id, [{ resolve, reject }]);
        schedule();
      });
    },
  };
}
