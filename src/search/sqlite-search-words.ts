// A query word as FTS5 indexes it (stemmed, folded): asked of FTS5's own tokenizer in a private in-memory database.
import type { SearchQuery } from './search-query.js';
import { SqliteDriver, type SqliteConnection, type SqliteStatement } from '../db/sqlite-driver.js';

/** Words already asked: the tokenizer never changes, so an answer holds for the process's life. */
const KEPT = 10_000;

interface Tokenizer {
  readonly insert: SqliteStatement;
  readonly terms: SqliteStatement;
  readonly clear: SqliteStatement;
}

let tokenizer: Tokenizer | null = null;
const kept = new Map<string, readonly string[]>();

function open(): Tokenizer {
  const connection: SqliteConnection = new SqliteDriver(':memory:');
  // The tokenizer of post_search (migration 002).
  connection.exec(`create virtual table words using fts5(w, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
    create virtual table words_terms using fts5vocab(words, instance);`);
  return {
    insert: connection.prepare('insert into words (rowid, w) values (1, ?)'),
    terms: connection.prepare('select term from words_terms order by offset').pluck(),
    clear: connection.prepare(`insert into words (words) values ('delete-all')`),
  };
}

/** The FTS5 tokens of `text`, in order. */
export function fts5Tokens(text: string): readonly string[] {
  const known = kept.get(text);
  if (known) return known;
  tokenizer ??= open();
  tokenizer.insert.run(text);
  const tokens = tokenizer.terms.all() as string[];
  tokenizer.clear.run();
  if (kept.size >= KEPT) kept.clear();
  kept.set(text, tokens);
  return tokens;
}

/** The one FTS5 term a query of one required word (or one-word phrase) and nothing else searches; null otherwise. */
export function singleTerm(query: SearchQuery): string | null {
  const [group, ...others] = query.groups;
  const [clause, ...more] = group ?? [];
  const [word, ...rest] = clause?.words ?? [];
  if (others.length > 0 || more.length > 0 || rest.length > 0 || !clause || clause.negated || word === undefined)
    return null;
  const tokens = fts5Tokens(word);
  return tokens.length === 1 ? (tokens[0] ?? null) : null;
}
