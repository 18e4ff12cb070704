// `npx tsx bench/search-topk-bounds.ts --database PATH`: whether an exact top 10 of search-zipf's multi-word and phrase
// queries could be proven without scoring every match, from each word's complete bm25 inputs read out of FTS5; then, for
// each form's largest queries, what FTS5's statements cost: the count's walk, bm25's IDF, bm25 over every match or the
// title tier's.
import { parseArgs } from 'node:util';
import { SqliteDriver } from '../src/db/sqlite-driver.js';
import { parseSearchQuery } from '../src/search/search-query.js';
import { fts5Varints } from '../src/search/sqlite-fts5-records.js';
import { toFts5Candidates, toFts5Match } from '../src/search/sqlite-search-query.js';
import { fts5Tokens } from '../src/search/sqlite-search-words.js';
import { COMMUNITY } from './corpus.js';
import { percentile } from './stats.js';
import { searchQueries } from './workloads.js';

const { values } = parseArgs({ options: { database: { type: 'string' } } });
if (!values.database) throw new Error('--database PATH is required');
const db = new SqliteDriver(values.database, { readonly: true });
const TOP = 10;
const K1 = 1.2;
const B = 0.75;
/** bm25's part of one phrase without its IDF (fts5_aux.c). */
const impact = (freq: number, length: number, avgdl: number): number =>
  (freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl));

const [rows = 0, ...columns] = fts5Varints(
  (db.prepare('select block from post_search_data where id = 1').get() as { block: Uint8Array }).block,
);
const avgdl = columns.reduce((sum, n) => sum + n, 0) / rows;
const { number } = db
  .prepare('select s.number from search_communities s join communities c on c.id = s.community_id where c.slug = ?')
  .get(COMMUNITY) as { number: number };
const from = number * 4294967296;
const to = from + 4294967295;
const lengths = new Map<number, number>();
for (const row of db.prepare('select id, sz from post_search_docsize where id between ? and ?').iterate(from, to)) {
  const { id, sz } = row as { id: number; sz: Uint8Array };
  lengths.set(
    id,
    fts5Varints(sz).reduce((sum, n) => sum + n, 0),
  );
}

/** One word's inputs in every post holding it: weighted hits, title hits, body hits, and its bm25 part. */
interface Entry {
  readonly freq: number;
  readonly title: number;
  readonly body: number;
  readonly impact: number;
}
interface WordList {
  readonly idf: number;
  readonly posts: Map<number, Entry>;
  /** The word's parts, best first (what impact-ordered postings read in order). */
  readonly ordered: number[];
}
const lists = new Map<string, WordList>();
const instances = db.prepare(`select doc, sum(col = 'title') as title, sum(col = 'body') as body
  from post_search_instances where term = ? and doc between ? and ? group by doc`);
const tableDocs = db.prepare('select doc from post_search_vocab where term = ?').pluck();
function listOf(term: string): WordList {
  const known = lists.get(term);
  if (known) return known;
  const posts = new Map<number, Entry>();
  for (const row of instances.iterate(term, from, to)) {
    const { doc, title, body } = row as { doc: number; title: number; body: number };
    const freq = 10 * title + body;
    posts.set(doc, { freq, title, body, impact: impact(freq, lengths.get(doc) ?? 0, avgdl) });
  }
  const hits = Number(tableDocs.get(term) ?? 0);
  const idf = Math.max(1e-6, Math.log((rows - hits + 0.5) / (hits + 0.5)));
  const ordered = [...posts.values()].map((entry) => entry.impact).sort((a, b) => b - a);
  const list = { idf, posts, ordered };
  lists.set(term, list);
  return list;
}

const scored = db.prepare(`select rowid as docid, -bm25(post_search, 10.0, 1.0) as score from post_search
  where post_search match ? and rowid between ? and ? order by score desc`);
const titledOf = db
  .prepare('select rowid from post_search where post_search match ? and rowid between ? and ?')
  .pluck();

interface Finding {
  readonly q: string;
  readonly match: string;
  readonly titledMatch: string;
  readonly form: string;
  readonly matches: number;
  readonly titledShare: number;
  /** The title tier's 10th best beats every post without a title hit (bounded per word, as a stored bound would). */
  readonly titleProof: boolean;
  /** Postings a threshold algorithm over complete impact-ordered lists reads before the bound falls to the 10th. */
  readonly depth: number;
}
const findings: Finding[] = [];
const seen = new Set<string>();
for (const q of searchQueries.zipf) {
  const phrase = q.startsWith('"');
  const form = phrase ? 'phrase' : q.includes(' OR ') ? 'or' : `${q.split(' ').length}-word`;
  if ((form !== '2-word' && form !== '3-word' && form !== 'phrase') || seen.has(q)) continue;
  seen.add(q);
  const query = parseSearchQuery(q);
  const match = toFts5Match(query);
  if (match === null) continue;
  const terms = [...new Set(query.groups.flatMap((group) => group.flatMap((c) => fts5Tokens(c.words.join(' ')))))];
  if (terms.length < 2) continue;
  const all = scored.all(match, from, to) as { docid: number; score: number }[];
  const kth = all[TOP - 1]?.score;
  if (kth === undefined) continue; // fewer than 10 matches: every one is ranked anyway
  const words = terms.map(listOf);
  const titled = new Set(
    phrase
      ? (titledOf.all(toFts5Candidates(query, 'title'), from, to) as number[])
      : all.filter((row) => words.some((w) => (w.posts.get(row.docid)?.title ?? 0) > 0)).map((row) => row.docid),
  );
  const titledScores = all.filter((row) => titled.has(row.docid));
  // A post outside the tier: for AND, every word in its body only; for a phrase, the phrase in its body only (its
  // body count at most each word's body count there).
  let restBound = 0;
  if (phrase) {
    const idf = Math.max(1e-6, Math.log((rows - all.length + 0.5) / (all.length + 0.5)));
    let least = Number.POSITIVE_INFINITY;
    for (const w of words) {
      let most = 0;
      for (const [doc, e] of w.posts)
        if (e.body > 0) most = Math.max(most, impact(e.body, lengths.get(doc) ?? 0, avgdl));
      least = Math.min(least, most);
    }
    restBound = idf * least;
  } else
    for (const w of words) {
      let most = 0;
      for (const e of w.posts.values()) if (e.title === 0) most = Math.max(most, e.impact);
      restBound += w.idf * most;
    }
  const titleProof = (titledScores[TOP - 1]?.score ?? Number.NEGATIVE_INFINITY) > restBound;
  // Threshold algorithm (AND only; a phrase has no list of its own): read the list whose next part weighs most.
  let depth = 0;
  if (!phrase) {
    const at = words.map(() => 0);
    const bound = () => words.reduce((sum, w, i) => sum + w.idf * (w.ordered[at[i] ?? 0] ?? 0), 0);
    while (bound() > kth) {
      let best = 0;
      let weight = -1;
      words.forEach((w, i) => {
        const next = w.idf * (w.ordered[at[i] ?? 0] ?? 0);
        if (next > weight) [best, weight] = [i, next];
      });
      at[best] = (at[best] ?? 0) + 1;
      depth += 1;
    }
  }
  const titledMatch = toFts5Candidates(query, 'title') ?? match;
  findings.push({
    q,
    match,
    titledMatch,
    form,
    matches: all.length,
    titledShare: titled.size / all.length,
    titleProof,
    depth,
  });
}

for (const form of ['2-word', '3-word', 'phrase']) {
  const list = findings.filter((f) => f.form === form);
  if (list.length === 0) continue;
  const sorted = (pick: (f: Finding) => number) => list.map(pick).sort((a, b) => a - b);
  const proven = list.filter((f) => f.titleProof).length;
  const share = sorted((f) => f.titledShare);
  const matches = sorted((f) => f.matches);
  const depth = sorted((f) => f.depth);
  process.stdout.write(
    `${form.padEnd(7)} ${list.length} distinct queries with 10+ matches (matches p50 ${percentile(matches, 50)}, max ${matches[matches.length - 1]}): ` +
      `title tier proves the top 10 for ${proven} (${((100 * proven) / list.length).toFixed(0)}%), ` +
      `titled share of matches p50 ${(100 * percentile(share, 50)).toFixed(0)}%` +
      (form === 'phrase'
        ? '\n'
        : `; threshold-algorithm depth p50 ${percentile(depth, 50)}, p90 ${percentile(depth, 90)}, max ${depth[depth.length - 1]} postings\n`),
  );
}
/** Median CPU ms of three runs of `run` (after one to warm the pages). */
function cpuMs(run: () => unknown): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const usage = process.cpuUsage();
    run();
    const used = process.cpuUsage(usage);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[1] ?? Number.NaN;
}
const count = db.prepare('select count(*) from post_search where post_search match ? and rowid between ? and ?');
const best = db.prepare(`select rowid, bm25(post_search, 10.0, 1.0) as s from post_search
  where post_search match ? and rowid between ? and ? order by s limit 42`);
const first = db.prepare('select rowid from post_search where post_search match ? and rowid between ? and ? limit 1');
// One match named by rowid: FTS5 seeks it, so the statement's cost is bm25's IDF (a walk of each phrase's doclist).
const one = db.prepare(
  'select bm25(post_search, 10.0, 1.0) from post_search where post_search match ? and rowid = cast(? as integer)',
);
const tier = db.prepare(`select rowid, bm25(post_search, 10.0, 1.0) as s from post_search
  where post_search match ? and rowid between ? and ?
    and +rowid in (select rowid from post_search where post_search match ? and rowid between ? and ?)
  order by s limit 42`);
process.stdout.write(
  'CPU ms: count | IDF alone | bm25 over every match, best 42 | bm25 over the title tier, best 42\n',
);
for (const form of ['2-word', '3-word', 'phrase'])
  for (const f of findings
    .filter((entry) => entry.form === form)
    .sort((a, b) => b.matches - a.matches)
    .slice(0, 3)) {
    const { rowid } = first.get(f.match, from, to) as { rowid: number };
    const figures = [
      cpuMs(() => count.get(f.match, from, to)),
      cpuMs(() => one.get(f.match, String(rowid))),
      cpuMs(() => best.all(f.match, from, to)),
      cpuMs(() => tier.all(f.match, from, to, f.titledMatch, from, to)),
    ];
    process.stdout.write(
      `${f.q.padEnd(28)} ${String(f.matches).padStart(7)} matches (${(100 * f.titledShare).toFixed(0)}% titled): ${figures.map((ms) => ms.toFixed(2)).join(' | ')}\n`,
    );
  }
db.close();
