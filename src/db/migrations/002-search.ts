// The full-text indexes of search (spec 4.5): FTS5 tables on SQLite, tsvector + GIN on PostgreSQL, kept in step by triggers.
import { sql, type Kysely } from 'kysely';
import type { StoreName } from './column-types.js';

/**
 * What each index holds: the source table and its indexed text columns with their weights (as
 * tsvector weights; bm25's weights are given at query time). Texts are cut to a bound so that
 * PostgreSQL's 1 MB tsvector limit can never make an import fail; SQLite applies the same bounds
 * so that both stores match alike.
 */
interface IndexSpec {
  readonly source: 'posts' | 'comments';
  /** Name of the index table (FTS5 table on SQLite, tsvector table on PostgreSQL). */
  readonly index: 'post_search' | 'comment_search';
  readonly columns: readonly {
    readonly name: string;
    readonly column: string;
    readonly limit: number;
    readonly weight: 'A' | 'B';
  }[];
  /** Columns of the source whose change means re-indexing. */
  readonly watched: readonly string[];
}

const TITLE_INDEX_LIMIT = 10_000;
const BODY_INDEX_LIMIT = 100_000;

const specs: readonly IndexSpec[] = [
  {
    source: 'posts',
    index: 'post_search',
    columns: [
      { name: 'title', column: 'title', limit: TITLE_INDEX_LIMIT, weight: 'A' },
      { name: 'body', column: 'body_plaintext', limit: BODY_INDEX_LIMIT, weight: 'B' },
    ],
    watched: ['title', 'body_plaintext', 'created_at'],
  },
  {
    source: 'comments',
    index: 'comment_search',
    columns: [{ name: 'body', column: 'body_plaintext', limit: BODY_INDEX_LIMIT, weight: 'B' }],
    watched: ['body_plaintext', 'created_at'],
  },
];

const changed = (columns: readonly string[], distinct: string) =>
  columns.map((c) => `old.${c} ${distinct} new.${c}`).join(' or ');

async function run(db: Kysely<unknown>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

// ---- SQLite ----

/**
 * SQLite: one contentless FTS5 table per kind (the text lives in posts/comments already) whose
 * rowid is a docid from `<index>_docs`. Each community owns the docid range
 * [number * 2^32, number * 2^32 + 2^32 - 1], so `rowid BETWEEN` confines a MATCH to one community
 * inside FTS5 itself: doclists are seeked to the range, other communities' rows are never
 * visited, and a count needs no join.
 */
function sqliteStatements(spec: IndexSpec): string[] {
  const docs = `${spec.index}_docs`;
  const names = spec.columns.map((c) => c.name).join(', ');
  // substr counts characters, as PostgreSQL's left() does.
  const texts = (row: 'new' | 'p') =>
    spec.columns.map((c) => `substr(coalesce(${row}.${c.column}, ''), 1, ${c.limit})`).join(', ');
  const docOf = (row: 'new' | 'old') =>
    `(select docid from ${docs} where community_id = ${row}.community_id and id = ${row}.id)`;
  const indexNew = `insert into ${spec.index} (rowid, ${names}) select docid, ${texts('new')} from ${docs} where community_id = new.community_id and id = new.id;`;
  return [
    `create table ${docs} (
      docid integer primary key,
      community_id text not null,
      id text not null,
      created_at text not null,
      unique (community_id, id)
    )`,
    `create virtual table ${spec.index} using fts5(${names}, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`,
    `create trigger ${spec.source}_search_insert after insert on ${spec.source} begin
      insert into search_communities (community_id)
        select new.community_id where not exists (select 1 from search_communities where community_id = new.community_id);
      insert into ${docs} (docid, community_id, id, created_at)
        select coalesce(
                 (select d.docid from ${docs} d where d.docid between s.number * 4294967296 and s.number * 4294967296 + 4294967295 order by d.docid desc limit 1),
                 s.number * 4294967296) + 1,
               new.community_id, new.id, new.created_at
        from search_communities s where s.community_id = new.community_id;
      ${indexNew}
    end`,
    `create trigger ${spec.source}_search_update after update of ${spec.watched.join(', ')} on ${spec.source}
    when ${changed(spec.watched, 'is not')} begin
      update ${docs} set created_at = new.created_at where community_id = new.community_id and id = new.id;
      delete from ${spec.index} where rowid = ${docOf('new')};
      ${indexNew}
    end`,
    `create trigger ${spec.source}_search_delete after delete on ${spec.source} begin
      delete from ${spec.index} where rowid = ${docOf('old')};
      delete from ${docs} where community_id = old.community_id and id = old.id;
    end`,
    // Rows that exist already: numbered per community in creation order, then indexed.
    `insert into ${docs} (docid, community_id, id, created_at)
      select s.number * 4294967296 + row_number() over (partition by p.community_id order by p.created_at, p.id),
             p.community_id, p.id, p.created_at
      from ${spec.source} p join search_communities s on s.community_id = p.community_id`,
    `insert into ${spec.index} (rowid, ${names})
      select d.docid, ${texts('p')}
      from ${docs} d join ${spec.source} p on p.community_id = d.community_id and p.id = d.id`,
  ];
}

async function sqliteUp(db: Kysely<unknown>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction; one here keeps a failed run from leaving half the tables.
  await db.transaction().execute(async (trx) => {
    await run(trx, [
      `create table search_communities (
        number integer primary key,
        community_id text not null unique
      )`,
      `insert into search_communities (community_id) select id from communities order by created_at, id`,
    ]);
    for (const spec of specs) await run(trx, sqliteStatements(spec));
  });
}

// ---- PostgreSQL ----

/**
 * ASCII punctuation becomes spaces before PostgreSQL parses the text. Its parser would otherwise read
 * `<script>…</script>` as a tag and drop its content, and keep `a@b.com`, `x.org/a`, `1.2.3` or
 * `e-mail` whole, where FTS5's unicode61 splits them into words; blanked, both stores see the same words.
 * The class is the 32 ASCII punctuation characters as code-point ranges (!-/ :-@ [-` {-~): `regexp_replace`
 * blanks them faster than `translate` of the same list, which looks each character up in it, and `translate` was
 * a large share of a bulk import's indexing (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
const PUNCTUATION_CLASS = '[!-/:-@[-`{-~]';
/**
 * Between the title's and the body's words: one position held by a lexeme no query can produce (a
 * space), so that a phrase never spans the end of a title and the start of a body, as FTS5 phrases
 * never span two columns.
 */
const COLUMN_GAP = `''' '':1'::tsvector`;

/**
 * PostgreSQL: a narrow table per kind (community_id, id, created_at, weighted tsvector) kept by
 * triggers, with one GIN index over (community_id, document) (btree_gin): a query's community
 * and words are intersected inside the index, so other communities' rows are never fetched.
 */
function postgresVector(spec: IndexSpec, row: 'new' | 'p'): string {
  return spec.columns
    .map(
      (c) =>
        `setweight(to_tsvector('hearth_search', regexp_replace(left(coalesce(${row}.${c.column}, ''), ${c.limit}), '${PUNCTUATION_CLASS}', ' ', 'g')), '${c.weight}')`,
    )
    .join(` || ${COLUMN_GAP} || `);
}

/**
 * The trigger function that keeps a search table in step. `deferrable` (migration 007): a transaction that sets
 * `hearth.defer_search` to 'on' skips it and loads the search table itself in one statement (the bulk import).
 */
export function postgresSearchFunction(source: 'posts' | 'comments', deferrable: boolean): string {
  const spec = specOf(source);
  return `create or replace function hearth_index_${spec.source}() returns trigger language plpgsql as $$
    begin${
      deferrable
        ? `
      if current_setting('hearth.defer_search', true) = 'on' then
        return null;
      end if;`
        : ''
    }
      if tg_op = 'DELETE' then
        delete from ${spec.index} where community_id = old.community_id and id = old.id;
        return null;
      end if;
      insert into ${spec.index} (community_id, id, created_at, document)
        values (new.community_id, new.id, new.created_at, ${postgresVector(spec, 'new')})
        on conflict (community_id, id) do update set created_at = excluded.created_at, document = excluded.document;
      return null;
    end $$`;
}

function specOf(source: 'posts' | 'comments'): IndexSpec {
  const spec = specs.find((s) => s.source === source);
  if (!spec) throw new Error(`No search index for ${source}`);
  return spec;
}

function postgresStatements(spec: IndexSpec): string[] {
  const fn = `hearth_index_${spec.source}`;
  return [
    `create table ${spec.index} (
      community_id text not null,
      id text not null,
      created_at timestamptz not null,
      document tsvector not null,
      primary key (community_id, id)
    )`,
    `create index ${spec.index}_document on ${spec.index} using gin (community_id, document)`,
    postgresSearchFunction(spec.source, false),
    `create trigger ${spec.source}_search_insert after insert on ${spec.source} for each row execute function ${fn}()`,
    `create trigger ${spec.source}_search_update after update of ${spec.watched.join(', ')} on ${spec.source} for each row
      when (${changed(spec.watched, 'is distinct from')}) execute function ${fn}()`,
    `create trigger ${spec.source}_search_delete after delete on ${spec.source} for each row execute function ${fn}()`,
    `insert into ${spec.index} (community_id, id, created_at, document) select p.community_id, p.id, p.created_at, ${postgresVector(spec, 'p')} from ${spec.source} p`,
  ];
}

/**
 * Extensions and the text search configuration are shared by every migration of the database;
 * creating them tolerates another process doing the same at the same moment (Kysely's advisory
 * lock already serializes Hearth's own migrations).
 */
const postgresShared = [
  ...['unaccent', 'btree_gin'].map(
    (name) => `do $$ begin
      create extension if not exists ${name};
    exception when unique_violation or duplicate_object then null;
    end $$`,
  ),
  // english's parser with unaccent first, then the original Porter stemmer (Snowball's `porter`, the algorithm
  // of FTS5's porter tokenizer; `english` is Porter2, which differs on -ly, -y and more) without a stop-word
  // list: FTS5 indexes every word, so PostgreSQL must too, or "to be or not to be" would match on one store only.
  // Words mixing letters and digits are stemmed too (`mp3s`, `1990s`), as FTS5 stems them.
  `do $$
  declare
    unaccent text;
  begin
    if not exists (
      select 1 from pg_ts_config c join pg_namespace n on n.oid = c.cfgnamespace
      where c.cfgname = 'hearth_search' and n.nspname = current_schema()
    ) then
      select format('%I.%I', n.nspname, d.dictname) into unaccent
        from pg_ts_dict d join pg_namespace n on n.oid = d.dictnamespace where d.dictname = 'unaccent' limit 1;
      create text search dictionary hearth_porter (template = pg_catalog.snowball, language = porter);
      create text search configuration hearth_search (copy = pg_catalog.english);
      alter text search configuration hearth_search
        alter mapping for asciiword, asciihword, hword_asciipart with hearth_porter;
      execute format('alter text search configuration hearth_search alter mapping for word, hword, hword_part, numword, numhword, hword_numpart with %s, hearth_porter', unaccent);
    end if;
  exception when unique_violation or duplicate_object then null;
  end $$`,
];

async function postgresUp(db: Kysely<unknown>): Promise<void> {
  await run(db, postgresShared);
  for (const spec of specs) await run(db, postgresStatements(spec));
}

export function searchMigration(store: StoreName) {
  return { up: store === 'postgres' ? postgresUp : sqliteUp };
}
