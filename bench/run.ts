// `npm run bench`: corpus, Hearth and baseline up, each workload measured against both, results and report written.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { renderChart } from './chart.js';
import { renderImportChart } from './import-chart.js';
import { consoleSessionCookie } from './console-session.js';
import { COMMUNITY, ensureCorpus, ensurePostgresCorpus } from './corpus.js';
import { measure } from './load-client.js';
import { parseOptions, type BenchOptions } from './options.js';
import { peakRssMb } from './proc-stats.js';
import { repoRoot, runHearth, startBaseline, startHearth, type BaselineService, type Service } from './processes.js';
import { importChartFile, importResultsFile, readImportStores, resultsFile, writeReport } from './report.js';
import type {
  BenchResults,
  ImportResults,
  LoadFigures,
  PageFigures,
  SkippedWorkload,
  WorkloadResult,
} from './results.js';
import { combineRounds, ROUND_WARMUP_SECONDS } from './rounds.js';
import { mean } from './stats.js';
import { evaluateImportTargets, evaluateTargets } from './targets.js';
import { ensureImportFiles, importWorkloadNames, runImportWorkloads } from './import-workload.js';
import { buildWorkloads, type Workload } from './workloads.js';

const log = (text: string) => process.stderr.write(`${text}\n`);
/** The harness's own requests (samples, ETags, metrics) fail after this long without an answer, never hang the run. */
const ANSWER_TIMEOUT_MS = 30_000;

interface Sample {
  /** As sent: compressed, for a compressed workload. */
  bodyBytes: number;
  /** Uncompressed. */
  identityBytes: number;
  meanTotalRecords: number | null;
}

interface CacheCounts {
  hits: number;
  misses: number;
}

/** The answer cache's counters from GET /metrics, or null when the server does not publish them. */
async function cacheCounts(hearth: Service): Promise<CacheCounts | null> {
  try {
    const response = await fetch(`${hearth.baseUrl}/metrics`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    const text = await response.text();
    const value = (name: string) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    const counts = { hits: value('hearth_answer_cache_hits_total'), misses: value('hearth_answer_cache_misses_total') };
    return Number.isFinite(counts.hits) && Number.isFinite(counts.misses) ? counts : null;
  } catch {
    return null;
  }
}

function hitRate(before: CacheCounts | null, after: CacheCounts | null): number | null {
  if (!before || !after) return null;
  const hits = after.hits - before.hits;
  const total = hits + after.misses - before.misses;
  return total > 0 ? hits / total : null;
}

/** The current ETag of each of `paths` (for the If-None-Match workload). */
async function etagsOf(hearth: Service, token: string, paths: readonly string[]): Promise<string[]> {
  const etags: string[] = [];
  for (const path of paths) {
    const response = await fetch(hearth.baseUrl + path, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    const etag = response.headers.get('etag');
    if (response.status !== 200 || !etag) throw new Error(`${path} answered ${response.status} without an ETag`);
    etags.push(etag);
  }
  return etags;
}

/** One answer as it came over the wire (node:http decodes nothing, unlike fetch): status, coding and bytes. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; coding: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          coding: response.headers['content-encoding'],
          bytes: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(ANSWER_TIMEOUT_MS, () =>
      request.destroy(new Error(`${url}: no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
    );
  });
}

/** How often `sample` asks a URL that answered 503 past the store's deadline (a cold store's first asks) again. */
const SAMPLE_TRIES = 3;

/**
 * Mean body size (and total_records) of up to 50 of the workload's URLs; every one must answer 200 with a JSON
 * object (an HTML page for the console), in the workload's coding when it has one. A 503 is asked again, up to
 * SAMPLE_TRIES times in all: the workload's own runs count such answers, and one must not stop the whole run here.
 */
async function sample(hearth: Service, credentials: Record<string, string>, workload: Workload): Promise<Sample> {
  const count = Math.min(50, workload.paths.length);
  const step = workload.paths.length / count;
  const sizes: number[] = [];
  const identitySizes: number[] = [];
  const totals: number[] = [];
  for (let i = 0; i < count; i++) {
    const path = workload.paths[Math.floor(i * step)] ?? '/';
    const { coding } = workload;
    const headers: Record<string, string> = { ...credentials };
    if (coding) headers['accept-encoding'] = coding;
    let response = await rawGet(hearth.baseUrl + path, headers);
    for (let tries = 1; response.status === 503 && tries < SAMPLE_TRIES; tries++)
      response = await rawGet(hearth.baseUrl + path, headers);
    const body =
      coding === 'br'
        ? brotliDecompressSync(response.bytes)
        : coding === 'gzip'
          ? gunzipSync(response.bytes)
          : response.bytes;
    const text = body.toString('utf8');
    const expected = path.includes('.ics')
      ? 'BEGIN:VCALENDAR'
      : path.startsWith('/admin/')
        ? '{"success":true'
        : path.startsWith('/console/')
          ? '<!doctype html>'
          : '{';
    if (response.status !== 200 || response.coding !== coding || !text.startsWith(expected))
      throw new Error(`${path} answered ${response.status} in ${response.coding ?? 'identity'}: ${text.slice(0, 300)}`);
    sizes.push(response.bytes.length);
    identitySizes.push(body.length);
    const total = /"total_records":(\d+)/.exec(text);
    if (total) totals.push(Number(total[1]));
  }
  return {
    bodyBytes: mean(sizes),
    identityBytes: mean(identitySizes),
    meanTotalRecords: totals.length === count ? mean(totals) : null,
  };
}

/** Whether GET /search exists yet (its route may land after the rest). */
async function searchAvailable(hearth: Service, token: string): Promise<boolean> {
  const response = await fetch(`${hearth.baseUrl}/admin/v0/search?q=probe&type=post`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  throw new Error(`GET /search answered ${response.status}`);
}

function checkClean(label: string, figures: LoadFigures): void {
  if (figures.non2xx > 0 || figures.errors > 0 || figures.requests === 0) {
    throw new Error(
      `${label}: ${figures.requests} responses, ${figures.non2xx} not 2xx, ${figures.errors} errors; the figures would mean nothing`,
    );
  }
}

function summaryLine(w: WorkloadResult): string {
  const r = (a: number, b: number) => (a / b).toFixed(2);
  return (
    `  ${w.title.padEnd(22)} ${Math.round(w.hearth.rps).toString().padStart(6)} req/s (x${r(w.hearth.rps, w.baseline.rps)} of ${Math.round(w.baseline.rps)}), ` +
    `p50/p99 ${w.hearth.p50Ms.toFixed(2)}/${w.hearth.p99Ms.toFixed(2)} ms (alone ${w.hearthAlone.p50Ms.toFixed(2)}/${w.hearthAlone.p99Ms.toFixed(2)}), ` +
    `${Math.round(w.hearth.cpuPerRequestUs)} µs CPU/req (x${r(w.hearth.cpuPerRequestUs, w.baseline.cpuPerRequestUs)}), ${Math.round(w.hearth.peakRssMb)} MB` +
    (w.hearth.shed || w.hearthAlone.shed
      ? `; 503 past the deadline: ${w.hearth.shed ?? 0} loaded, ${w.hearthAlone.shed ?? 0} alone`
      : '')
  );
}

function pageLine(page: PageFigures): string {
  const f = page.hearthAlone;
  return (
    `    ${page.name.padEnd(20)} one connection p50/p95/p99 ${f.p50Ms.toFixed(2)}/${(f.p95Ms ?? Number.NaN).toFixed(2)}/${f.p99Ms.toFixed(2)} ms, ` +
    `${Math.round(f.cpuPerRequestUs)} µs CPU/req, ${f.requests} requests over ${page.urls} addresses`
  );
}

async function runWorkloads(
  options: BenchOptions,
  hearth: Service,
  baseline: BaselineService,
  token: string,
  consoleCookie: string | null,
  workloads: Workload[],
  loads: number[],
) {
  const results: WorkloadResult[] = [];
  for (const workload of workloads) {
    loads.push(loadavg()[0] ?? 0);
    // A console workload carries the session cookie; the API's carry the token.
    const credentials: Record<string, string> =
      workload.session && consoleCookie ? { cookie: consoleCookie } : { authorization: `Bearer ${token}` };
    const sampled = await sample(hearth, credentials, workload);
    const { meanTotalRecords } = sampled;
    // A 304 carries no body: the baseline answers its smallest body.
    const bodyBytes = workload.conditional ? 0 : sampled.bodyBytes;
    const etags = workload.conditional ? await etagsOf(hearth, token, workload.paths) : undefined;
    const headers: Record<string, string> = { ...credentials };
    if (workload.coding) headers['accept-encoding'] = workload.coding;
    const job = { paths: workload.paths, headers };
    // One loaded round: the first warmed as the options say, the others only enough for their new connections.
    const loaded = (round: number) => ({
      ...job,
      connections: options.connections,
      warmupSeconds: round === 0 ? options.warmupSeconds : Math.min(ROUND_WARMUP_SECONDS, options.warmupSeconds),
      durationSeconds: options.durationSeconds / options.rounds,
    });
    // Already warm from the loaded runs: one connection, one request at a time, for latency without queueing.
    const alone = { ...job, connections: 1, warmupSeconds: 0, durationSeconds: options.aloneSeconds };
    await baseline.setBodyBytes(bodyBytes);
    // Hearth's and the baseline's loaded rounds in turn: a neighbour busy for a while weighs on both alike.
    const hearthRounds: LoadFigures[] = [];
    const baselineRounds: LoadFigures[] = [];
    const cacheBefore = await cacheCounts(hearth);
    for (let round = 0; round < options.rounds; round++) {
      hearthRounds.push(await measure({ ...loaded(round), etags, baseUrl: hearth.baseUrl }, hearth.pid));
      baselineRounds.push(await measure({ ...loaded(round), baseUrl: baseline.baseUrl }, baseline.pid));
    }
    const cacheAfter = await cacheCounts(hearth);
    const hearthFigures = combineRounds(hearthRounds);
    checkClean(`${workload.name} (Hearth)`, hearthFigures);
    const baselineFigures = combineRounds(baselineRounds);
    checkClean(`${workload.name} (baseline)`, baselineFigures);
    const hearthAlone = await measure({ ...alone, etags, baseUrl: hearth.baseUrl }, hearth.pid);
    checkClean(`${workload.name} (Hearth, one connection)`, hearthAlone);
    const baselineAlone = await measure({ ...alone, baseUrl: baseline.baseUrl }, baseline.pid);
    checkClean(`${workload.name} (baseline, one connection)`, baselineAlone);
    // Each page kind alone too, for the percentiles of each (the mixed run's p95 hides which page is slow).
    const pages: PageFigures[] = [];
    for (const kind of workload.pages ?? []) {
      const figures = await measure({ ...alone, paths: kind.paths, baseUrl: hearth.baseUrl }, hearth.pid);
      checkClean(`${workload.name}: ${kind.name} (Hearth, one connection)`, figures);
      pages.push({ name: kind.name, urls: new Set(kind.paths).size, hearthAlone: figures });
    }
    const result: WorkloadResult = {
      name: workload.name,
      title: workload.title,
      description: workload.description,
      bodyBytes,
      ...(workload.coding
        ? { coding: workload.coding, identityBytes: sampled.identityBytes, identity: workload.identity }
        : {}),
      urls: new Set(workload.paths).size,
      meanTotalRecords,
      hearth: hearthFigures,
      baseline: baselineFigures,
      hearthAlone,
      baselineAlone,
      cacheHitRate: hitRate(cacheBefore, cacheAfter),
      ...(pages.length > 0 ? { pages } : {}),
    };
    log(summaryLine(result));
    for (const page of pages) log(pageLine(page));
    results.push(result);
  }
  return results;
}

/** The import workloads `--only` asks for (`import` names both); all of them when it names none of the others. */
function importNames(options: BenchOptions): string[] {
  if (!options.only) return [...importWorkloadNames];
  return importWorkloadNames.filter((name) => options.only?.includes(name) || options.only?.includes('import'));
}

/** Runs the import workloads, keeps their figures beside the read workloads' and rewrites the report when one exists. */
async function runImports(
  options: BenchOptions,
  names: string[],
  corpusDir: string,
  resultsDir: string,
  out: string | null,
): Promise<void> {
  const files = await ensureImportFiles(corpusDir, options.scale, options.seed, log);
  log(`Import workloads on ${options.store} (${files.records.all} records in the corpus file):`);
  const imports = await runImportWorkloads({
    store: options.store,
    dir: corpusDir,
    postgresUrl: options.postgresUrl,
    files,
    names,
    log,
  });
  const results: ImportResults = {
    finishedAt: new Date().toISOString(),
    store: options.store,
    scale: options.scale,
    seed: options.seed,
    imports,
    targets: evaluateImportTargets(imports, options.store),
  };
  writeFileSync(importResultsFile(resultsDir, options.store), `${JSON.stringify(results, null, 2)}\n`);
  // Drawn from every store's figures kept here, so a PostgreSQL run keeps SQLite's bars beside its own.
  writeFileSync(importChartFile(resultsDir), renderImportChart(readImportStores(resultsDir)));
  for (const target of results.targets)
    log(`  ${target.pass === null ? 'n/a ' : target.pass ? 'pass' : 'FAIL'}  ${target.goal}: ${target.measured}`);
  const reportPath = out ? join(out, 'BENCHMARKS.md') : join(repoRoot, 'BENCHMARKS.md');
  if (existsSync(resultsFile(resultsDir, 'sqlite'))) {
    const read = (store: 'sqlite' | 'postgres') =>
      existsSync(resultsFile(resultsDir, store))
        ? (JSON.parse(readFileSync(resultsFile(resultsDir, store), 'utf8')) as BenchResults)
        : null;
    const primary = read('sqlite');
    if (primary) writeReport(primary, join(resultsDir, 'chart.svg'), reportPath, read('postgres'));
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const scratch = options.smoke && !options.out ? mkdtempSync(join(tmpdir(), 'hearth-bench-')) : null;
  const out = options.out ?? scratch;
  const resultsDir = out ?? join(repoRoot, 'bench', 'results');
  const corpusDir = scratch ? join(scratch, 'corpus') : join(repoRoot, 'bench', '.corpus');
  mkdirSync(resultsDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const imports = importNames(options);
  // Only import workloads asked for: no corpus database, no server.
  if (options.only?.every((name) => name === 'import' || (importWorkloadNames as readonly string[]).includes(name))) {
    try {
      await runImports(options, imports, corpusDir, resultsDir, out);
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
    return;
  }

  const corpus = await ensureCorpus({
    dir: corpusDir,
    scale: options.scale,
    seed: options.seed,
    rebuild: options.rebuild,
    log,
  });
  const servedUrl =
    options.store === 'postgres'
      ? await ensurePostgresCorpus({
          serverUrl: options.postgresUrl,
          scale: options.scale,
          seed: options.seed,
          rebuild: options.rebuild,
          log,
        })
      : corpus.path;
  const token = (
    await runHearth(['token', 'create', '--community', COMMUNITY, '--scopes', 'read', '--name', 'bench'], {
      DATABASE_URL: servedUrl,
    })
  ).trim();
  const services: Service[] = [];
  // Interrupted (Ctrl-C), the servers it started must not outlive it.
  const interrupt = () =>
    void Promise.all(services.map((service) => service.stop())).finally(() => {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      process.exit(130);
    });
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const hearth = await startHearth(servedUrl);
    services.push(hearth);
    const baseline = await startBaseline();
    services.push(baseline);
    const withSearch = await searchAvailable(hearth, token);
    const all = buildWorkloads(corpus.path, COMMUNITY, withSearch).filter(
      (w) => !options.only || options.only.includes(w.name),
    );
    const skipped: SkippedWorkload[] = all
      .filter((w) => w.needsSearch && !withSearch)
      .map((w) => ({ name: w.name, title: w.title, reason: 'GET /search is not there yet' }));
    const workloads = all.filter((w) => withSearch || !w.needsSearch);
    // Signed in once, before any figure is taken, when a console workload is to run.
    const consoleCookie = workloads.some((w) => w.session)
      ? await consoleSessionCookie(hearth.baseUrl, servedUrl, COMMUNITY)
      : null;
    const startupPeak = peakRssMb(hearth.pid);
    log(
      `Hearth (pid ${hearth.pid}) at ${hearth.baseUrl}, baseline (pid ${baseline.pid}); ${workloads.length} workloads, each ${options.warmupSeconds} s warm-up, ` +
        `${options.durationSeconds} s at ${options.connections} connections in ${options.rounds} round${options.rounds === 1 ? '' : 's'}, ${options.aloneSeconds} s at one:`,
    );

    const loads: number[] = [];
    const measured = await runWorkloads(options, hearth, baseline, token, consoleCookie, workloads, loads);
    const hearthPeakRssMb = Math.max(
      startupPeak,
      ...measured.flatMap((w) => [w.hearth.peakRssMb, w.hearthAlone.peakRssMb]),
    );
    const cpu = cpus();
    const results: BenchResults = {
      startedAt,
      finishedAt: new Date().toISOString(),
      settings: {
        store: options.store,
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        durationSeconds: options.durationSeconds,
        aloneSeconds: options.aloneSeconds,
        rounds: options.rounds,
        smoke: options.smoke,
      },
      machine: {
        cpuModel: cpu[0]?.model.trim() ?? 'unknown CPU',
        cores: cpu.length,
        memoryGb: totalmem() / 2 ** 30,
        os: `${type()} ${release()}`,
        node: process.versions.node,
        loadAverages: loads,
      },
      corpus: corpus.info,
      hearthPeakRssMb,
      baselinePeakRssMb: Math.max(...measured.flatMap((w) => [w.baseline.peakRssMb, w.baselineAlone.peakRssMb])),
      workloads: measured,
      skipped,
      targets: evaluateTargets(measured, hearthPeakRssMb, options.store),
    };

    const chartPath = join(resultsDir, 'chart.svg');
    writeFileSync(resultsFile(resultsDir, options.store), `${JSON.stringify(results, null, 2)}\n`);
    const reportPath = out ? join(out, 'BENCHMARKS.md') : join(repoRoot, 'BENCHMARKS.md');
    // The report leads with SQLite and adds PostgreSQL's figures when they have been measured.
    const read = (store: 'sqlite' | 'postgres') =>
      existsSync(resultsFile(resultsDir, store))
        ? (JSON.parse(readFileSync(resultsFile(resultsDir, store), 'utf8')) as BenchResults)
        : null;
    const primary = read('sqlite') ?? results;
    writeFileSync(chartPath, renderChart(primary));
    if (imports.length > 0) await runImports(options, imports, corpusDir, resultsDir, out);
    writeReport(primary, chartPath, reportPath, read('postgres'));
    for (const target of results.targets)
      log(`  ${target.pass === null ? 'n/a ' : target.pass ? 'pass' : 'FAIL'}  ${target.goal}: ${target.measured}`);
    if (skipped.length > 0) log(`  skipped: ${skipped.map((s) => s.name).join(', ')} (${skipped[0]?.reason ?? ''})`);
    log(
      scratch
        ? `Smoke run complete (${measured.length} workloads); nothing kept.`
        : `Wrote ${reportPath}, ${chartPath} and latest.json.`,
    );
  } finally {
    for (const service of services.reverse()) await service.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
