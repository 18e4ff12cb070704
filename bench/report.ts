// BENCHMARKS.md from a run's results: how to run, method, machine, table, targets, chart and notes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './processes.js';
import { ROUND_WARMUP_SECONDS } from './rounds.js';
import { storeName, type BenchResults, type ImportResults, type LoadFigures, type WorkloadResult } from './results.js';

/** Hand-written notes on the figures (why a target is missed, what would meet it), kept across regenerations. */
const ANALYSIS = join(repoRoot, 'bench', 'analysis.md');

const int = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : 'n/a');
/** Two decimals, or two significant digits below 0.01, so a tiny ratio does not read as zero. */
const ratio = (a: number, b: number) => {
  const r = a / b;
  if (!(b > 0) || !Number.isFinite(r)) return 'n/a';
  return r > 0 && r < 0.01 ? r.toPrecision(2) : r.toFixed(2);
};
/** A file's path as the report links it: relative to the report's folder, with forward slashes. */
const linkFrom = (reportPath: string, path: string) => relative(dirname(reportPath), path).split('\\').join('/');
const pair = (hearth: number, baseline: number, format: (v: number) => string) =>
  `${format(hearth)} / ${format(baseline)}`;

function row(w: WorkloadResult): string {
  const h: LoadFigures = w.hearth;
  const b: LoadFigures = w.baseline;
  return [
    w.title,
    int(w.bodyBytes),
    int(h.rps),
    int(b.rps),
    `**${ratio(h.rps, b.rps)}**`,
    pair(h.p50Ms, b.p50Ms, ms),
    pair(h.p99Ms, b.p99Ms, ms),
    `${pair(w.hearthAlone.p50Ms, w.hearthAlone.p99Ms, ms)} (${pair(w.baselineAlone.p50Ms, w.baselineAlone.p99Ms, ms)})`,
    `${pair(h.cpuPerRequestUs, b.cpuPerRequestUs, int)} (${ratio(h.cpuPerRequestUs, b.cpuPerRequestUs)})`,
    `${pair(h.peakRssMb, b.peakRssMb, int)} (${ratio(h.peakRssMb, b.peakRssMb)})`,
    w.cacheHitRate === undefined || w.cacheHitRate === null ? 'n/a' : `${(w.cacheHitRate * 100).toFixed(1)}%`,
  ].join(' | ');
}

const TABLE_HEAD = `| Workload | Body (bytes) | Hearth req/s | Baseline req/s | Ratio | p50 ms | p99 ms | One connection: p50 / p99 ms (baseline) | Server CPU µs/req (ratio) | Peak RSS MB (ratio) | Answer cache hits |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`;

/** Where each store's latest figures are kept; the report shows every store that has been measured. */
export const resultsFile = (dir: string, store: 'sqlite' | 'postgres' = 'sqlite') =>
  join(dir, store === 'sqlite' ? 'latest.json' : 'latest-postgres.json');
const PROFILE = join(repoRoot, 'bench', 'results', 'profile.md');
/** `npm run bench:instructions` writes it: instructions per request, which the machine's load does not move. */
const INSTRUCTIONS = join(repoRoot, 'bench', 'results', 'instructions.md');
/** Where each store's latest import figures are kept (`--only import` runs without a server or read workloads). */
export const importResultsFile = (dir: string, store: 'sqlite' | 'postgres') =>
  join(dir, store === 'sqlite' ? 'import.json' : 'import-postgres.json');

/** The import chart, beside the import figures it is drawn from. */
export const importChartFile = (dir: string) => join(dir, 'import-chart.svg');

function readImports(dir: string, store: 'sqlite' | 'postgres'): ImportResults | null {
  const path = importResultsFile(dir, store);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ImportResults) : null;
}

/** The import figures of each store measured so far in `dir`, SQLite first. */
export function readImportStores(dir: string): ImportResults[] {
  return [readImports(dir, 'sqlite'), readImports(dir, 'postgres')].filter((r): r is ImportResults => r !== null);
}

/** The import workloads of both stores, when they have been measured, with their chart when it has been drawn. */
export function importSection(dir: string, reportPath: string): string {
  const stores = readImportStores(dir);
  if (stores.length === 0) return '';
  const chartPath = importChartFile(dir);
  const chart = existsSync(chartPath)
    ? `\n![Import records/s per store and workload against the targets, with peak RSS](${linkFrom(reportPath, chartPath)})\n`
    : '';
  const verdict = (pass: boolean | null) => (pass === null ? 'not run' : pass ? '**pass**' : '**FAIL**');
  return `
## Import

\`npm run bench -- --only import [--store postgres]\`: \`hearth import\` (the compiled build) of the demo corpus written
as NDJSON, each workload into a fresh database; records/s is the command's own figure (reading, checking and
writing, one transaction), peak RSS the import process's \`VmHWM\`.
${chart}
| Store | Workload | Records | Seconds | Records/s | Peak RSS MB |
|---|---|---:|---:|---:|---:|
${stores.flatMap((r) => r.imports.map((i) => `| ${storeName(r.store)} (${r.scale.toLocaleString('en-US')} posts) | ${i.title} | ${int(i.records)} | ${i.seconds.toFixed(1)} | **${int(i.recordsPerSecond)}** | ${int(i.peakRssMb)} |`)).join('\n')}

| Target | Measured | Result |
|---|---|---|
${stores.flatMap((r) => r.targets.map((t) => `| ${t.goal} | ${t.measured} | ${verdict(t.pass)} |`)).join('\n')}

${stores.flatMap((r) => r.imports.map((i) => `- *${i.title}* (${storeName(r.store)}): ${i.description}.`)).join('\n')}
`;
}

/** Compressed workloads beside the workload asking for the same answers uncompressed: bytes saved, CPU it costs. */
function compressionSection(results: BenchResults): string {
  const compressed = results.workloads.filter((w) => w.coding);
  if (compressed.length === 0) return '';
  const byName = new Map(results.workloads.map((w) => [w.name, w]));
  const lines = compressed.map((w) => {
    const plain = w.identity === undefined ? undefined : byName.get(w.identity);
    const identityBytes = w.identityBytes ?? Number.NaN;
    const saved = `${(100 * (1 - w.bodyBytes / identityBytes)).toFixed(0)}%`;
    const cpu = w.hearth.cpuPerRequestUs;
    const plainCpu = plain?.hearth.cpuPerRequestUs ?? Number.NaN;
    const signed = (value: number) => (value >= 0 ? `+${int(value)}` : `−${int(-value)}`);
    return [
      w.title,
      `\`${w.coding}\``,
      `${int(identityBytes)} → ${int(w.bodyBytes)} (${saved})`,
      `${int(cpu)} / ${int(plainCpu)} (${Number.isFinite(plainCpu) ? signed(cpu - plainCpu) : 'n/a'})`,
      `${int(w.hearth.rps)} / ${plain ? int(plain.hearth.rps) : 'n/a'}`,
      `**${ratio(w.hearth.rps, w.baseline.rps)}** / ${plain ? ratio(plain.hearth.rps, plain.baseline.rps) : 'n/a'}`,
      `${ratio(cpu, w.baseline.cpuPerRequestUs)} / ${plain ? ratio(plainCpu, plain.baseline.cpuPerRequestUs) : 'n/a'}`,
    ].join(' | ');
  });
  return `
### Compressed answers (issue 36, item 7)

Each compressed workload asks for the URLs of its uncompressed row with \`Accept-Encoding\`, and each pair is
read against the other: bytes per answer as sent (the baseline sends as many), and the server CPU each request
took, compressed / uncompressed, the difference being what compression costs (or saves) per answer. A cached
answer is compressed once per coding and kept (brotli 5, gzip 6): the cached rows pay only for choosing the kept
form. The *spread* rows miss the cache, so each answer is compressed as it is read.

| Workload | Coding | Bytes per answer: uncompressed → sent (saved) | Server CPU µs/req: compressed / uncompressed (difference) | Hearth req/s: compressed / uncompressed | Ratio to baseline req/s | Ratio to baseline CPU |
|---|---|---:|---:|---:|---:|---:|
${lines.map((line) => `| ${line} |`).join('\n')}
`;
}

function postgresSection(results: BenchResults | null): string {
  if (!results) return '';
  const verdict = (pass: boolean | null) => (pass === null ? 'not run' : pass ? '**pass**' : '**FAIL**');
  return `
## PostgreSQL (${results.finishedAt.slice(0, 16).replace('T', ' ')} UTC)

\`npm run bench -- --store postgres\`: the same workloads against Hearth serving the same corpus (\`hearth demo\`
with the same scale and seed, ${results.corpus.scale.toLocaleString('en-US')} posts) from PostgreSQL on this machine.

${TABLE_HEAD}
${results.workloads.map((w) => `| ${row(w)} |`).join('\n')}

| Target | Measured | Result |
|---|---|---|
${results.targets.map((t) => `| ${t.goal} | ${t.measured} | ${verdict(t.pass)} |`).join('\n')}
`;
}

export function renderReport(
  results: BenchResults,
  chartPath: string,
  reportPath: string,
  postgres: BenchResults | null = null,
): string {
  const { machine, corpus, settings } = results;
  const chart = linkFrom(reportPath, chartPath);
  const counts = Object.entries(corpus.counts)
    .map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind.replace('_', ' ')}`)
    .join(', ');
  const loads = machine.loadAverages.map((l) => l.toFixed(1));
  const analysis = existsSync(ANALYSIS)
    ? readFileSync(ANALYSIS, 'utf8')
        .replace(/<!--[\s\S]*?-->/g, '')
        .trim()
    : '';
  const verdict = (pass: boolean | null) => (pass === null ? 'not run' : pass ? '**pass**' : '**FAIL**');
  const rounds = settings.rounds ?? 1;
  const inRounds =
    rounds > 1
      ? ` in ${rounds} rounds of ${settings.durationSeconds / rounds} s, Hearth's and the baseline's in turn (each round after the first warmed ${ROUND_WARMUP_SECONDS} s; responses and CPU summed over the rounds, the median round's p50, the highest p99)`
      : '';
  return `# Benchmarks

\`npm run bench\` builds Hearth, builds (or reuses) a corpus, serves it, loads it workload by workload
beside a bare \`node:http\` baseline, and writes this file, \`bench/results/chart.svg\` and the raw
figures in \`bench/results/latest.json\`. Options: \`--scale N\` or \`BENCH_SCALE\` (posts, default
1,000,000), \`--seed N\`, \`--duration S\` and \`--warmup S\` (seconds per workload), \`--rounds N\` (the loaded
run in N rounds alternating with the baseline's, 3 by default), \`--connections N\`, \`--only a,b\` (workload names),
\`--rebuild\` (a fresh corpus). \`npm run bench:smoke\` does the same
on 300 posts for a second or two per workload, in a temporary directory; CI runs it after the tests.

## Results (${results.finishedAt.slice(0, 16).replace('T', ' ')} UTC)

![Throughput and latency per workload, Hearth against the baseline](${chart})

Each Hearth figure sits beside the baseline's (Hearth / baseline), because the absolute figures move with
whatever else the machine is doing; the ratios are what to compare between runs. Requests per second, p50,
p99, CPU and memory come from the loaded run (${settings.connections} connections); at that load a request's latency is
mostly its wait behind the others, so each workload is also run on one connection, one request at a time,
for the latency of a request alone.

${TABLE_HEAD}
${results.workloads.map((w) => `| ${row(w)} |`).join('\n')}
${results.skipped.length > 0 ? `\nNot run: ${results.skipped.map((s) => `${s.title} (${s.reason})`).join('; ')}.\n` : ''}
Peak server memory over the whole run (start, every workload): Hearth ${int(results.hearthPeakRssMb)} MB,
baseline ${int(results.baselinePeakRssMb)} MB.

The answer-cache column is the share of the loaded run's answers served from the per-process cache of
rendered answers (from \`/metrics\`); the *spread* workloads ask for more distinct records than it holds.

${compressionSection(results)}
### Targets (issue 11 for the read path; search from issues 7 and 12)

| Target | Measured | Result |
|---|---|---|
${results.targets.map((t) => `| ${t.goal} | ${t.measured} | ${verdict(t.pass)} |`).join('\n')}

### Corpus and import

${corpus.scale.toLocaleString('en-US')} posts (seed ${corpus.seed}): ${counts}; ${int(corpus.records)} import records,
a ${int(corpus.databaseMb)} MB SQLite file. \`hearth demo --scale ${corpus.scale}\` imported them through the real
import path (one transaction, the bulk path into an empty community) in **${corpus.importSeconds.toFixed(1)} s,
${int(corpus.importRecordsPerSecond)} records/s**; the whole command took ${corpus.processSeconds.toFixed(0)} s of wall time and
${corpus.processCpuSeconds.toFixed(0)} s of CPU${corpus.reused ? ` (built ${corpus.builtAt.slice(0, 16).replace('T', ' ')} and reused for this run)` : ''}.

### Machine

${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb.toFixed(0)} GB memory; ${machine.os}; Node ${machine.node}.
The load generator, the server under test and the baseline all run on this machine, so they share its
${machine.cores} cores. 1-minute load average before each workload: ${loads.join(', ')}${
    Math.max(...machine.loadAverages) > machine.cores
      ? ' (other work was running: the absolute figures are low and noisy, the ratios less so)'
      : ''
  }.
${postgresSection(postgres)}${importSection(dirname(chartPath), reportPath)}${existsSync(PROFILE) ? `\n${readFileSync(PROFILE, 'utf8').trim()}\n` : ''}${existsSync(INSTRUCTIONS) ? `\n${readFileSync(INSTRUCTIONS, 'utf8').trim()}\n` : ''}${analysis ? `\n${analysis}\n` : ''}
## Method

- **Server**: the compiled build (\`node bin/hearth.js serve\`) on the corpus, SQLite, \`LOG_LEVEL=warn\`,
  \`RATE_LIMIT_PER_SECOND\` high enough never to refuse; every request carries a \`read\` token created
  with \`hearth token create\`, so authentication, rate limiting, validation, serialization and ETags all run.
- **Baseline**: a bare \`node:http\` server (\`bench/baseline-server.ts\`, compiled, plain \`node\`) answering every
  request with one fixed JSON body of the workload's mean response size (measured over a sample of its URLs).
- **Load**: autocannon in its own process, ${settings.connections} connections, no pipelining, ${settings.warmupSeconds} s of
  warm-up then ${settings.durationSeconds} s measured${inRounds}, then ${settings.aloneSeconds} s on one connection against Hearth, then the
  baseline, workload by workload. Each
  request takes the next URL of the workload's rotation, so neither SQLite's page cache nor any other cache
  sees one URL over and over. Latencies are recorded per response (2xx only; any other status fails the run)
  and their percentiles computed exactly.
- **Server CPU per request**: user + system time of the server process from \`/proc/<pid>/stat\` over the
  measured window, divided by the responses in it. **Peak RSS**: \`VmHWM\` from \`/proc/<pid>/status\`, reset
  (\`clear_refs\`) before each measured window, so each row has its own peak; the whole-run peak is above.
- **Workloads**:
${results.workloads.map((w) => `  - *${w.title}*: ${w.description}${w.meanTotalRecords === null ? '' : `; each answer's \`total_records\` is ${int(w.meanTotalRecords)} on average`}.`).join('\n')}
`;
}

export function writeReport(
  results: BenchResults,
  chartPath: string,
  reportPath: string,
  postgres: BenchResults | null = null,
): void {
  writeFileSync(reportPath, renderReport(results, chartPath, reportPath, postgres));
}

// Run alone (`tsx bench/report.ts [results.json] [BENCHMARKS.md]`) to rewrite the report from saved figures.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = join(repoRoot, 'bench', 'results');
  const source = process.argv[2] ?? resultsFile(dir);
  const target = process.argv[3] ?? join(repoRoot, 'BENCHMARKS.md');
  const postgres = existsSync(resultsFile(dir, 'postgres'))
    ? (JSON.parse(readFileSync(resultsFile(dir, 'postgres'), 'utf8')) as BenchResults)
    : null;
  writeReport(JSON.parse(readFileSync(source, 'utf8')) as BenchResults, join(dir, 'chart.svg'), target, postgres);
  process.stdout.write(`Wrote ${target}\n`);
}
