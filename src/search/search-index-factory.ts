// Picks the search index of the store in use: FTS5 on SQLite, tsquery on PostgreSQL.
import type { StoreDialect } from '../db/dialect.js';
import type { SecondReader } from '../db/second-reader.js';
import { createPostgresSearchIndex } from './postgres-search-index.js';
import { defaultBudget, type SearchBudget } from './search-budget.js';
import type { SearchIndex } from './search-index.js';
import { createSqliteSearchIndex } from './sqlite-search-index.js';

/** `second`: SQLite's second reader, for rankings split across two threads (none: every ranking on one). */
export function searchIndexFor(
  dialect: StoreDialect,
  budget: SearchBudget = defaultBudget,
  second: SecondReader | null = null,
): SearchIndex {
  return dialect.name === 'postgres' ? createPostgresSearchIndex(budget) : createSqliteSearchIndex(budget, second);
}
