// `npm run bench:quality`: the benchmark's search queries ranked exactly and on the budget; top-10 agreement and time per query.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { openStore } from '../src/db/store.js';
import { defaultBudget } from '../src/search/search-budget.js';
import { searchIndexFor } from '../src/search/search-index-factory.js';
import { parseSearchQuery } from '../src/search/search-query.js';
import { corpusCommunityId, ensureCorpus } from './corpus.js';
import { exactSearch } from './exact-search.js';
import { repoRoot } from './processes.js';
import { percentile } from './stats.js';
import { searchQueries } from './workloads.js';

const log = (text: string) => process.stderr.write(`${text}\n`);
const p50 = (values: readonly number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const TOP = 10;
/** Each query runs this many times each way; the median time is kept (the machine is shared and noisy). */
const REPEATS = 3;

interface Timed<T> {
  value: T;
  ms: number;
}

/** CPU time of this process on SQLite (the query runs here); wall time on PostgreSQL (it runs in the server). */
async function timed<T>(cpu: boolean, run: () => Promise<T>): Promise<Timed<T>> {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < REPEATS; i++) {
    const wall = performance.now();
    const usage = process.cpuUsage();
    value = await run();
    const used = process.cpuUsage(usage);
    times.push(cpu ? (used.user + used.system) / 1000 : performance.now() - wall);
  }
  if (value === undefined) throw new Error('no run');
  return { value, ms: p50(times) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      scale: { type: 'string' },
      seed: { type: 'string', default: '1' },
      only: { type: 'string' },
      budget: { type: 'string' },
      candidates: { type: 'string' },
    },
  });
  const database =
    values.database ??
    (
      await ensureCorpus({
        dir: join(repoRoot, 'bench', '.corpus'),
        scale: Number(values.scale ?? (process.env.BENCH_SCALE || '1000000')),
        seed: Number(values.seed),
        rebuild: false,
        log,
      })
    ).path;
  const store = openStore(database, 2);
  const cpu = store.dialect.name === 'sqlite';
  try {
    const community = await corpusCommunityId(store);
    const budget = {
      rankBudget: Number(values.budget ?? defaultBudget.rankBudget),
      titleCandidates: Number(values.candidates ?? defaultBudget.titleCandidates),
    };
    const budgeted = searchIndexFor(store.dialect, budget);
    const exact = exactSearch(store.dialect);
    const window = { limit: TOP, offset: 0 };
    const kinds = (values.only?.split(',') ?? Object.keys(searchQueries)) as (keyof typeof searchQueries)[];
    let agreeing = 0;
    let positions = 0;
    log(
      `${store.dialect.name}, budget ${budget.rankBudget} matches, ${budget.titleCandidates} candidates; ${cpu ? 'CPU' : 'wall'} ms per query (median of ${REPEATS} runs); agreement = positions of the top ${TOP} equal to exact bm25's`,
    );
    for (const kind of kinds) {
      let kindAgreeing = 0;
      let kindPositions = 0;
      const exactMs: number[] = [];
      const budgetMs: number[] = [];
      const totals: number[] = [];
      const misses: string[] = [];
      for (const q of searchQueries[kind]) {
        const query = parseSearchQuery(q);
        const reference = await timed(cpu, () => exact(store.db, 'post', community, query, window));
        const answer = await timed(cpu, () => budgeted.search(store.db, 'post', community, query, window));
        const same = reference.value.filter((id, i) => answer.value.ids[i] === id).length;
        kindAgreeing += same;
        kindPositions += reference.value.length;
        exactMs.push(reference.ms);
        budgetMs.push(answer.ms);
        totals.push(answer.value.total);
        if (same < reference.value.length) misses.push(`${q} (${same}/${reference.value.length})`);
      }
      agreeing += kindAgreeing;
      positions += kindPositions;
      const ms = (list: number[]) => `p50 ${p50(list).toFixed(1)}, max ${Math.max(...list).toFixed(1)}`;
      log(
        `${kind.padEnd(9)} ${String(searchQueries[kind].length).padStart(3)} queries, matches p50 ${p50(totals)} max ${Math.max(...totals)}: ` +
          `agreement ${((100 * kindAgreeing) / Math.max(1, kindPositions)).toFixed(1)}%; exact ${ms(exactMs)} ms; budgeted ${ms(budgetMs)} ms` +
          (misses.length > 0 ? `\n          differs: ${misses.join(', ')}` : ''),
      );
    }
    log(
      `all: top-${TOP} agreement ${((100 * agreeing) / Math.max(1, positions)).toFixed(2)}% (${agreeing} of ${positions} positions)`,
    );
  } finally {
    await store.close();
  }
}

await main();
