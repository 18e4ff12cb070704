// SQLite's impact postings for frequent words (issue 40): each word's exact number of posts per community, and its posts
// grouped by bm25 inputs (weighted hits, length), shortest first, kept by triggers in the writer's transaction.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/** The FTS5 table's texts and bounds, as migration 002 indexes them (copied: migrations are frozen). */
const texts = (row: string) =>
  `substr(coalesce(${row}.title, ''), 1, 10000), substr(coalesce(${row}.body_plaintext, ''), 1, 100000)`;

/** A docid's community number (migration 002: each community owns docids [number * 2^32, number * 2^32 + 2^32 - 1]). */
const community = (docid: string) => `(${docid}) / 4294967296`;

/** The scratch document's words: FTS5's own tokens of one post, as `post_search` holds them. */
const words = `(select term, sum(iif(col = 'title', 10, 1)) as freq from post_search_scratch_terms group by term)`;
const length = '(select count(*) from post_search_scratch_terms)';

/** Statements that tokenize `row`'s texts into the scratch table (rowid 1). */
const scratch = (row: string) => `insert into post_search_scratch (rowid, title, body) values (1, ${texts(row)});`;
// By rowid, not 'delete-all': in a trigger on a file database, 'delete-all' cost 200 µs a post against 20 µs.
const clear = 'delete from post_search_scratch where rowid = 1;';

/** Adds the scratch document as `docid` to the counts and postings of its community's impact words. */
function added(docid: string): string {
  const c = community(docid);
  return `update post_search_terms set docs = docs + 1
      where community = ${c} and term in (select term from post_search_scratch_terms);
    insert into post_search_impacts (community, term, freq, length, docid)
      select ${c}, w.term, w.freq, ${length}, ${docid} from ${words} w
      where exists (select 1 from post_search_terms t where t.community = ${c} and t.term = w.term)
        and not exists (select 1 from post_search_impact_bounds b
          where b.community = ${c} and b.term = w.term and b.freq = w.freq and b.length < ${length});`;
}

/** Removes the scratch document, known as `docid`, from the counts and postings of its community's impact words. */
function removed(docid: string): string {
  const c = community(docid);
  return `update post_search_terms set docs = docs - 1
      where community = ${c} and term in (select term from post_search_scratch_terms);
    delete from post_search_impacts where (community, term, freq, length, docid) in
      (select ${c}, w.term, w.freq, ${length}, ${docid} from ${words} w);`;
}

const docOf = (row: string) =>
  `(select docid from post_search_docs where community_id = ${row}.community_id and id = ${row}.id)`;
/** The post's community has impact words (none: nothing to keep, the triggers do nothing). */
const tracked = (docid: string) => `exists (select 1 from post_search_terms where community = ${community(docid)})`;
const textChanged = 'old.title is not new.title or old.body_plaintext is not new.body_plaintext';

const statements = [
  // A contentless FTS5 table with post_search's tokenizer: a post's words as the index sees them, one post at a time.
  `create virtual table post_search_scratch using fts5(title, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`,
  `create virtual table post_search_scratch_terms using fts5vocab(post_search_scratch, instance)`,
  // The index's own vocabulary, read when impact words are chosen and built (search/sqlite-search-impacts-build.ts).
  `create virtual table post_search_vocab using fts5vocab(post_search, row)`,
  `create virtual table post_search_instances using fts5vocab(post_search, instance)`,
  // A community's impact words and the exact number of its posts holding each.
  `create table post_search_terms (
    community integer not null,
    term text not null,
    docs integer not null,
    primary key (community, term)
  ) without rowid`,
  // Per impact word, its posts by weighted hits (freq: 10 per title hit, 1 per body hit) and length in words.
  `create table post_search_impacts (
    community integer not null,
    term text not null,
    freq integer not null,
    length integer not null,
    docid integer not null,
    primary key (community, term, freq, length, docid)
  ) without rowid`,
  // A group (word, freq) cut at build time: it holds every post of the group whose length is at most `length`.
  // No row: the group holds all its posts.
  `create table post_search_impact_bounds (
    community integer not null,
    term text not null,
    freq integer not null,
    length integer not null,
    primary key (community, term, freq)
  ) without rowid`,
  // On post_search_docs, whose row migration 002's insert trigger writes before the FTS row: SQLite fires a table's
  // triggers newest first, so one on posts would run before the post has a docid.
  `create trigger post_search_docs_impacts_insert after insert on post_search_docs when ${tracked('new.docid')} begin
    insert into post_search_scratch (rowid, title, body)
      select 1, ${texts('p')} from posts p where p.community_id = new.community_id and p.id = new.id;
    ${added('new.docid')}
    ${clear}
  end`,
  `create trigger posts_search_impacts_delete before delete on posts when ${tracked(docOf('old'))} begin
    ${scratch('old')}
    ${removed(docOf('old'))}
    ${clear}
  end`,
  `create trigger posts_search_impacts_unindex before update of title, body_plaintext on posts
  when (${textChanged}) and ${tracked(docOf('old'))} begin
    ${scratch('old')}
    ${removed(docOf('old'))}
    ${clear}
  end`,
  `create trigger posts_search_impacts_index after update of title, body_plaintext on posts
  when (${textChanged}) and ${tracked(docOf('new'))} begin
    ${scratch('new')}
    ${added(docOf('new'))}
    ${clear}
  end`,
];

export function searchImpactsMigration(store: StoreName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // PostgreSQL ranks with its own index (postgres-search-index.ts); these tables are SQLite's.
      if (store !== 'sqlite') return;
      await db.transaction().execute(async (trx) => {
        for (const statement of statements) await sql.raw(statement).execute(trx);
      });
    },
  };
}
