// FTS5's own tokenizer in a private in-memory database: a query's words as FTS5 indexes them (stemmed, folded), and
// how often stored posts' texts hold a phrase, as post_search counts it.
import type { SearchQuery } from './search-query.js';
import { SqliteDriver, type SqliteConnection, type SqliteStatement } from '../db/sqlite-driver.js';
import type { IndexedText } from './sqlite-search-statements.js';

/** Words already asked: the tokenizer never changes, so an answer holds for the process's life. */
const KEPT = 10_000;

interface Tokenizer {
  readonly insert: SqliteStatement;
  readonly terms: SqliteStatement;
  readonly clear: SqliteStatement;
  readonly connection: SqliteConnection;
  readonly insertPost: SqliteStatement;
  readonly instances: SqliteStatement;
  readonly clearPosts: SqliteStatement;
}

let tokenizer: Tokenizer | null = null;
const kept = new Map<string, readonly string[]>();

function open(): Tokenizer {
  const connection: SqliteConnection = new SqliteDriver(':memory:');
  // The tokenizer of post_search (migration 002).
  connection.exec(`create virtual table words using fts5(w, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
    create virtual table words_terms using fts5vocab(words, instance);
    create virtual table posts using fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
    create virtual table posts_terms using fts5vocab(posts, instance);`);
  return {
    insert: connection.prepare('insert into words (rowid, w) values (1, ?)'),
    terms: connection.prepare('select term from words_terms order by offset').pluck(),
    clear: connection.prepare(`insert into words (words) values ('delete-all')`),
    connection,
    insertPost: connection.prepare('insert into posts (rowid, title, body) values (?, ?, ?)'),
    instances: connection.prepare(
      'select doc, col, "offset", term from posts_terms where term in (select value from json_each(?))',
    ),
    clearPosts: connection.prepare(`insert into posts (posts) values ('delete-all')`),
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

/**
 * Each post's weighted hits of the phrase `tokens` (FTS5 tokens, in order), as bm25 counts a phrase: every position
 * where the tokens follow one another in one column, 10 for the title and 1 for the body. Posts without the phrase
 * are left out.
 */
export function phraseHits(posts: readonly IndexedText[], tokens: readonly string[]): Map<number, number> {
  tokenizer ??= open();
  const { connection, insertPost, instances, clearPosts } = tokenizer;
  const at = new Map<string, string>();
  connection.exec('begin');
  try {
    for (const post of posts) insertPost.run(post.docid, post.title, post.body);
    for (const row of instances.all(JSON.stringify([...new Set(tokens)])) as {
      doc: number;
      col: string;
      offset: number;
      term: string;
    }[])
      at.set(`${row.doc} ${row.col} ${row.offset}`, row.term);
    clearPosts.run();
  } finally {
    connection.exec('commit');
  }
  const hits = new Map<number, number>();
  for (const [key, term] of at) {
    if (term !== tokens[0]) continue;
    const [doc = '', col = '', offset = ''] = key.split(' ');
    const start = Number(offset);
    if (!tokens.every((token, i) => at.get(`${doc} ${col} ${start + i}`) === token)) continue;
    const docid = Number(doc);
    hits.set(docid, (hits.get(docid) ?? 0) + (col === 'title' ? 10 : 1));
  }
  return hits;
}
