// The column types the migrations create on each store, frozen here: a later change to the live dialect
// (db/*-dialect.ts) must not change what an old migration makes of a fresh store.
export type StoreName = 'sqlite' | 'postgres';

export type ColumnKind = 'timestamp' | 'json' | 'bool' | 'bytes';

const types = {
  sqlite: { timestamp: 'text', json: 'text', bool: 'integer', bytes: 'blob' },
  postgres: { timestamp: 'timestamptz', json: 'jsonb', bool: 'boolean', bytes: 'bytea' },
} as const;

export const columnType = <K extends ColumnKind>(store: StoreName, kind: K): (typeof types)[StoreName][K] =>
  types[store][kind];
