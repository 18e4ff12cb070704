// `npx tsx bench/search-profile.ts --database PATH [--query Q]`: where one uncached search's CPU goes. Calls the store's
// search index in this process (no HTTP, no answer cache) for each common word (or the one query Q), under the V8 profiler.
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { openStore } from '../src/db/store.js';
import { searchIndexFor } from '../src/search/search-index-factory.js';
import { parseSearchQuery } from '../src/search/search-query.js';
import { corpusCommunityId } from './corpus.js';
import { searchWords } from './workloads.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const { values } = parseArgs({
  options: { database: { type: 'string' }, rounds: { type: 'string', default: '5' }, query: { type: 'string' } },
});
if (!values.database) throw new Error('--database PATH is required');
const store = openStore(values.database, 2);
const community = { id: await corpusCommunityId(store) };
const index = searchIndexFor(store.dialect);
const queries = values.query === undefined ? searchWords.common : [values.query];
const run = async () => {
  for (const q of queries)
    await index.search(store.db, 'post', community.id, parseSearchQuery(q), { limit: 10, offset: 0 });
};
await run(); // warm: statements prepared, pages cached
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const rounds = Number(values.rounds);
const usage = process.cpuUsage();
for (let i = 0; i < rounds; i++) await run();
const used = process.cpuUsage(usage);
const { profile } = await session.post('Profiler.stop');
const searches = rounds * queries.length;
const what = values.query === undefined ? `${queries.length} common words` : `'${values.query}'`;
process.stdout.write(
  `${searches} queries (${what} × ${rounds}): ${Math.round((used.user + used.system) / searches)} µs CPU per query\n`,
);
const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
const self = new Map<string, number>();
profile.samples?.forEach((id, i) => {
  const frame = nodes.get(id)?.callFrame;
  if (!frame) return;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}`;
  self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
});
const total = [...self.values()].reduce((sum, t) => sum + t, 0);
for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8))
  process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${key}\n`);
await store.close();
