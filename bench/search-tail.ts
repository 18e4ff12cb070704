// `npx tsx bench/search-tail.ts --database PATH`: where search-zipf's tail is. Each of its 1,000 quality queries (bench/zipf.ts) is
// searched in this process (no HTTP, no answer cache), uncached page 1 of 10; CPU per query by form, and the slowest. On
// PostgreSQL (`--database postgres://…`) most of the work is the server's: wall-clock ms per query are given beside.
import { parseArgs } from 'node:util';
import { openStore } from '../src/db/store.js';
import { searchIndexFor } from '../src/search/search-index-factory.js';
import { parseSearchQuery } from '../src/search/search-query.js';
import { corpusCommunityId } from './corpus.js';
import { exactSearch } from './exact-search.js';
import { percentile } from './stats.js';
import { searchQueries } from './workloads.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    slowest: { type: 'string', default: '15' },
    quality: { type: 'boolean', default: false },
  },
});
if (!values.database) throw new Error('--database PATH is required');
const store = openStore(values.database, 2);
const community = { id: await corpusCommunityId(store) };
const index = searchIndexFor(store.dialect);
const exact = exactSearch(store.dialect);
const window = { limit: 10, offset: 0 };

/** The query's form as search-zipf draws it. */
const formOf = (q: string): string =>
  q.startsWith('"') ? 'phrase' : q.includes(' OR ') ? 'or' : `${q.split(' ').length}-word`;

interface Timed {
  q: string;
  form: string;
  us: number;
  /** Wall-clock time of the search, in ms (the database server's work included). */
  ms: number;
  total: number;
}
const timed: Timed[] = [];
let agreeing = 0;
for (const q of searchQueries.zipf) {
  const query = parseSearchQuery(q);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const hits = await index.search(store.db, 'post', community.id, query, window);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  timed.push({ q, form: formOf(q), us: used.user + used.system, ms, total: hits.total });
  if (values.quality) {
    const reference = await exact(store.db, 'post', community.id, query, window);
    if (reference.length === hits.ids.length && reference.every((id, i) => hits.ids[i] === id)) agreeing += 1;
    else process.stdout.write(`differs: ${q}\n`);
  }
}
const line = (label: string, list: readonly Timed[]) => {
  const us = list.map((entry) => entry.us).sort((a, b) => a - b);
  const sum = us.reduce((s, u) => s + u, 0);
  const ms = list.map((entry) => entry.ms).sort((a, b) => a - b);
  const wall = (p: number) => percentile(ms, p).toFixed(2);
  process.stdout.write(
    `${label.padEnd(8)} ${String(list.length).padStart(4)} queries: CPU µs p50 ${percentile(us, 50)}, p90 ${percentile(us, 90)}, p99 ${percentile(us, 99)}, max ${us[us.length - 1]}; CPU ${Math.round(sum / 1000)} ms in all, ${((100 * sum) / timed.reduce((s, e) => s + e.us, 0)).toFixed(1)}% of the run's; wall ms p50 ${wall(50)}, p99 ${wall(99)}, max ${(ms[ms.length - 1] ?? 0).toFixed(2)}\n`,
  );
};
line('all', timed);
for (const form of ['1-word', '2-word', '3-word', 'phrase', 'or'])
  line(
    form,
    timed.filter((e) => e.form === form),
  );
if (values.quality) process.stdout.write(`top 10 equal to exact bm25: ${agreeing} of ${timed.length}\n`);
for (const entry of [...timed].sort((a, b) => b.ms - a.ms).slice(0, Number(values.slowest)))
  process.stdout.write(
    `${entry.ms.toFixed(2).padStart(8)} ms ${String(entry.us).padStart(8)} µs  ${String(entry.total).padStart(7)} matches  ${entry.q}\n`,
  );
await store.close();
