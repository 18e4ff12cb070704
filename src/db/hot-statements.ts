// The few statements every read runs, prepared once and run on the driver itself, outside the query builder.
// SQL is written once with `?` placeholders; each store turns it into its own prepared statement.

/** A statement's parameter; a list only where the SQL takes an array (PostgreSQL's `= any(?)`). */
export type HotParam = string | number | null | readonly string[];

/** `?, ?, …`: the placeholders of an `in (…)` list of `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export interface HotStatements {
  /** True when `all` answers synchronously (SQLite): a read is then one call, with no turn of the event loop. */
  readonly synchronous: boolean;
  /** Rows of a read-only statement; SQLite answers synchronously, PostgreSQL in one round trip. */
  all<T>(sql: string, params: readonly HotParam[]): T[] | Promise<T[]>;
  /**
   * A number that moves whenever another connection or process commits a change: SQLite's
   * `PRAGMA data_version`, PostgreSQL's sum of the communities' `fragment_version`. Cheap enough to ask once a
   * millisecond.
   */
  changeMark(): number | Promise<number>;
}
