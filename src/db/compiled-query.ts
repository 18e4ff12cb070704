// Statements a writer runs once per record (the Slack applier's reads and marks), built and compiled by Kysely once
// per store and then run again with new parameters: the query builder's cost is paid once per statement, not once
// per call. Each store compiles its own SQL (placeholders, quoting) from the same builder; on SQLite the driver then
// finds the prepared statement by its text.
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.js';

/** A parameter of a reused statement: plain values only (a boolean or a list would change the SQL per store). */
export type ReusedParam = string | number | null;

/** Where a parameter goes: the builder receives these in place of values and the compiled SQL binds them. */
class Slot {
  constructor(readonly index: number) {}
}

/** The n-th argument, as a value the builder accepts wherever a value goes. */
type SlotOf = (index: number) => never;

const slotOf: SlotOf = (index) => new Slot(index) as never;

export interface Reused<A extends readonly ReusedParam[], R> {
  /** The statement's rows. */
  all(db: Kysely<Database>, ...args: A): Promise<R[]>;
  /** Its first row. */
  first(db: Kysely<Database>, ...args: A): Promise<R | undefined>;
  /** How many rows it inserted, updated or deleted. */
  affected(db: Kysely<Database>, ...args: A): Promise<number>;
}

/**
 * A statement built once per store by `build`, which places its arguments with `$(0)`, `$(1)`…; each call binds
 * new ones. Constants the builder writes in stay as they are.
 */
export function reusedQuery<A extends readonly ReusedParam[], R = unknown>(
  build: (db: Kysely<Database>, $: SlotOf) => Compilable<R>,
): Reused<A, R> {
  // Keyed by the store's dialect adapter: a transaction shares it with the store it was opened on.
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  async function run(db: Kysely<Database>, args: A): Promise<QueryResult<R>> {
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db, slotOf).compile();
      compiled.set(adapter, query);
    }
    const parameters = query.parameters.map((value) => (value instanceof Slot ? args[value.index] : value));
    return db.executeQuery<R>({ ...query, parameters });
  }
  return {
    all: async (db, ...args) => (await run(db, args)).rows,
    first: async (db, ...args) => (await run(db, args)).rows[0],
    affected: async (db, ...args) => Number((await run(db, args)).numAffectedRows ?? 0n),
  };
}
