// `npm run bench:instructions`: user-space instructions per request, counted by valgrind's callgrind, for Hearth and
// for the bare node:http server answering a body of the same size. Unlike CPU time, a count does not move with the
// machine's neighbours; it leaves out the kernel's share (socket system calls), which both servers pay alike.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { COMMUNITY, ensureCorpus } from './corpus.js';
import { compiledBaseline, hearthBin, repoRoot, runHearth } from './processes.js';
import { buildWorkloads, type Workload } from './workloads.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.BENCH_SCALE || '1000000' },
    workloads: { type: 'string', default: 'post-by-id,post-by-id-304,event-by-id,feed-first-page,events-filtered' },
    warmup: { type: 'string', default: '8000' },
    requests: { type: 'string', default: '3000' },
  },
});
const log = (text: string) => process.stderr.write(`${text}\n`);
const warmup = Number(values.warmup);
const measured = Number(values.requests);
/** Paths kept in rotation: enough to vary the answer, few enough that the warm-up fills the answer cache. */
const ROTATION = 200;

interface Counted {
  child: ChildProcess;
  pid: number;
  port: number;
  dir: string;
}

/** Starts `args` under callgrind with counting off; resolves once it answers HTTP on `port`. */
async function underCallgrind(args: string[], port: number, env: NodeJS.ProcessEnv): Promise<Counted> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'cg.out')}`,
      process.execPath,
      ...args,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    },
  );
  if (child.pid === undefined) throw new Error('valgrind did not start');
  for (let tries = 0; tries < 600; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) return { child, pid: child.pid, port, dir };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill('SIGKILL');
  throw new Error(`Nothing answered on port ${port} under valgrind`);
}

function control(pid: number, flag: string): void {
  const result = spawnSync('callgrind_control', [flag, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`callgrind_control ${flag} failed: ${result.stderr}`);
}

/** Sends `amount` requests over 4 connections, paths and conditional headers in rotation. */
async function send(
  port: number,
  amount: number,
  token: string,
  paths: string[],
  etags: (string | undefined)[],
): Promise<number> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 4,
    amount,
    headers: { authorization: `Bearer ${token}` },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const i = next++ % paths.length;
          const etag = etags[i];
          return {
            ...request,
            path: paths[i] ?? '/',
            headers: etag ? { ...request.headers, 'if-none-match': etag } : request.headers,
          };
        },
      },
    ],
  });
  // A conditional workload expects 304 on every answer, anything else a 2xx.
  const expected = etags.length > 0 ? result['3xx'] : result['2xx'];
  return amount - expected;
}

/** Instructions per request over `amount` requests, counted from zero with counting on only for them. */
async function count(target: Counted, amount: number, load: (amount: number) => Promise<number>): Promise<number> {
  await load(warmup);
  control(target.pid, '--zero');
  control(target.pid, '--instr=on');
  const failed = await load(amount);
  control(target.pid, '--instr=off');
  const before = new Set(readdirSync(target.dir));
  control(target.pid, '--dump');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const dump = readdirSync(target.dir).find((name) => !before.has(name));
  if (!dump) throw new Error('callgrind wrote no dump');
  const totals = /^totals: (\d+)/m.exec(readFileSync(join(target.dir, dump), 'utf8'));
  if (!totals?.[1]) throw new Error(`No totals in ${dump}`);
  if (failed > 0) log(`  (${failed} answers were not the expected status)`);
  return Number(totals[1]) / amount;
}

async function stop(target: Counted): Promise<void> {
  target.child.kill('SIGTERM');
  await new Promise((resolve) => target.child.once('exit', resolve));
  rmSync(target.dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const corpus = await ensureCorpus({
    dir: join(repoRoot, 'bench', '.corpus'),
    scale: Number(values.scale),
    seed: 1,
    rebuild: false,
    log,
  });
  const token = (
    await runHearth(['token', 'create', '--community', COMMUNITY, '--scopes', 'read', '--name', 'instructions'], {
      DATABASE_URL: corpus.path,
    })
  ).trim();
  const chosen = values.workloads.split(',').map((name) => name.trim());
  const workloads = buildWorkloads(corpus.path, COMMUNITY, true).filter((w) => chosen.includes(w.name));

  const port = 39_000 + (process.pid % 500);
  log('Starting Hearth under callgrind (slow: every instruction is counted)...');
  const hearth = await underCallgrind([hearthBin, 'serve', '--port', String(port)], port, {
    DATABASE_URL: corpus.path,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000000',
  });
  const rows: { workload: Workload; bytes: number; hearth: number; baseline: number }[] = [];
  const sizes = new Map<string, { paths: string[]; etags: (string | undefined)[]; bytes: number }>();
  try {
    // Hearth's own JIT warms up once over every workload first: otherwise the first count carries its compilation.
    for (const workload of workloads) await send(port, warmup, token, workload.paths.slice(0, ROTATION), []);
    for (const workload of workloads) {
      const paths = workload.paths.slice(0, ROTATION);
      const answers = await Promise.all(
        paths.map((path) =>
          fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } }),
        ),
      );
      const bodies = await Promise.all(answers.map((answer) => answer.arrayBuffer()));
      const etags = workload.conditional ? answers.map((answer) => answer.headers.get('etag') ?? undefined) : [];
      const bytes = workload.conditional ? 0 : bodies.reduce((sum, body) => sum + body.byteLength, 0) / bodies.length;
      sizes.set(workload.name, { paths, etags, bytes });
      log(`${workload.title}: counting ${measured} requests after ${warmup} to warm up...`);
      const perRequest = await count(hearth, measured, (amount) => send(port, amount, token, paths, etags));
      rows.push({ workload, bytes, hearth: perRequest, baseline: Number.NaN });
    }
  } finally {
    await stop(hearth);
  }

  const baselineFile = compiledBaseline();
  const baselinePort = port + 500;
  log('Starting the bare server under callgrind...');
  const baseline = await underCallgrind([baselineFile], baselinePort, { BASELINE_PORT: String(baselinePort) });
  try {
    // Its own JIT warms up once more first: otherwise the first workload's count carries the bare server's compilation.
    await send(baselinePort, warmup * 2, token, ['/'], []);
    for (const row of rows) {
      await fetch(`http://127.0.0.1:${baselinePort}/__bench/size/${Math.round(row.bytes)}`, { method: 'PUT' });
      log(`Bare server at ${Math.round(row.bytes)} bytes: counting...`);
      row.baseline = await count(baseline, measured, (amount) => send(baselinePort, amount, token, ['/'], []));
    }
  } finally {
    await stop(baseline);
    rmSync(baselineFile, { force: true });
  }

  const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en-US')}k`;
  const lines = [
    '## Instructions per request (callgrind)',
    '',
    `\`npm run bench:instructions -- --scale ${values.scale}\`: user-space instructions per request counted by valgrind's callgrind over ` +
      `${measured.toLocaleString('en-US')} requests after ${warmup.toLocaleString('en-US')} to warm up (JIT and answer cache), ${ROTATION} paths in rotation, ` +
      "against the bare node:http server answering a body of the same size. The kernel's share (socket system calls) is not counted.",
    '',
    '| Workload | Body (bytes) | Hearth | Bare server | Ratio |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.workload.title} | ${Math.round(row.bytes).toLocaleString('en-US')} | ${k(row.hearth)} | ${k(row.baseline)} | ${(row.hearth / row.baseline).toFixed(2)}x |`,
    ),
  ];
  const out = join(repoRoot, 'bench', 'results', 'instructions.md');
  writeFileSync(out, `${lines.join('\n')}\n`);
  log(lines.join('\n'));
  log(`Wrote ${out}`);
}

await main();
