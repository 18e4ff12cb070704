// The few statements every read runs, prepared once and run on the driver itself, outside the query builder.
// SQL is written once with `?` placeholders; each store turns it into its own prepared statement.

export type HotParam = string | number | null;

/** `?, ?, …`: the placeholders of an `in (…)` list of `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export interface HotStatements {
  /** Rows of a read-only statement; SQLite answers synchronously, PostgreSQL in one round trip. */
  all<T>(sql: string, params: readonly HotParam[]): T[] | Promise<T[]>;
  /**
   * A number that moves whenever another connection or process commits a change: SQLite's
   * `PRAGMA data_version`, PostgreSQL's sum of the communities' `fragment_version`. Cheap enough to ask once a
   * millisecond.
   */
  changeMark(): number | Promise<number>;
}
