// Picks the search index of the store in use: FTS5 on SQLite, tsquery on PostgreSQL.
import type { StoreDialect } from '../db/dialect.js';
import { createPostgresSearchIndex } from './postgres-search-index.js';
import { defaultBudget, type SearchBudget } from './search-budget.js';
import type { SearchIndex } from './search-index.js';
import { createSqliteSearchIndex } from './sqlite-search-index.js';

export function searchIndexFor(dialect: StoreDialect, budget: SearchBudget = defaultBudget): SearchIndex {
  return dialect.name === 'postgres' ? createPostgresSearchIndex(budget) : createSqliteSearchIndex(budget);
}
