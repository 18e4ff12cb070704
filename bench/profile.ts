// `npm run bench:profile`: where one request's CPU goes. Serves the corpus under `node --cpu-prof`, loads one
// workload, and writes bench/results/profile.md: sampled CPU per request by layer, and the heaviest functions.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { COMMUNITY, ensureCorpus } from './corpus.js';
import { hearthBin, repoRoot, runHearth } from './processes.js';
import { buildWorkloads } from './workloads.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: process.env.BENCH_SCALE || '1000000' },
    workload: { type: 'string', default: 'post-by-id' },
    seconds: { type: 'string', default: '10' },
  },
});
const log = (text: string) => process.stderr.write(`${text}\n`);

/** The layer a sampled frame belongs to, by its script. */
function layer(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (url === '')
    return functionName === 'writev' || functionName === 'writeUtf8String' || functionName === 'writeBuffer'
      ? 'socket writes (system calls)'
      : 'native (SQLite, hashing, parsing)';
  if (url.includes('/dist/')) return 'Hearth (dist/)';
  if (
    /node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify|fast-json-stringify|fast-querystring|toad-cache|pino|abstract-logging|process-warning)/.test(
      url,
    )
  )
    return 'Fastify and its plugins';
  if (url.includes('node_modules')) return 'other packages';
  if (/node:(_http|net|internal\/streams|internal\/stream_base|events|internal\/http)/.test(url))
    return 'Node HTTP and streams';
  if (url.includes('node:internal/crypto')) return 'Node crypto';
  return 'other Node internals';
}

async function main(): Promise<void> {
  const scale = Number(values.scale);
  const corpus = await ensureCorpus({ dir: join(repoRoot, 'bench', '.corpus'), scale, seed: 1, rebuild: false, log });
  const token = (
    await runHearth(['token', 'create', '--community', COMMUNITY, '--scopes', 'read', '--name', 'profile'], {
      DATABASE_URL: corpus.path,
    })
  ).trim();
  const workload = buildWorkloads(corpus.path, COMMUNITY, true).find((w) => w.name === values.workload);
  if (!workload) throw new Error(`No workload '${values.workload}'`);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
  const port = 39_000 + (process.pid % 1000);
  const server = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, hearthBin, 'serve', '--port', String(port)],
    {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: corpus.path, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000000' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await new Promise<void>((resolve) =>
    server.stderr?.on('data', (chunk: Buffer) => chunk.toString().includes('Hearth serving') && resolve()),
  );
  let next = 0;
  const load = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 10,
      duration: seconds,
      headers: { authorization: `Bearer ${token}` },
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: workload.paths[next++ % workload.paths.length] ?? '/' }),
        },
      ],
    });
  await load(3);
  const measuredFrom = performance.now();
  const result = await load(Number(values.seconds));
  const measuredMs = performance.now() - measuredFrom;
  server.kill('SIGINT');
  await new Promise((resolve) => server.once('exit', resolve));
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('The server wrote no profile');
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  rmSync(dir, { recursive: true, force: true });

  // Only the samples of the measured window: the last `measuredMs` of the profile (shutdown is idle).
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const total = profile.timeDeltas.reduce((sum, d) => sum + d, 0);
  const layers = new Map<string, number>();
  const functions = new Map<string, number>();
  let elapsed = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed < total - measuredMs * 1000) continue;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    const us = profile.timeDeltas[i] ?? 0;
    const name = layer(node.callFrame);
    layers.set(name, (layers.get(name) ?? 0) + us);
    if (name === '(idle)') continue;
    const where = node.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${where}${where ? `:${node.callFrame.lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const requests = result.requests.total;
  const busy = [...layers].filter(([name]) => name !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
  const perRequest = (us: number) => (us / requests).toFixed(1);
  const lines = [
    `## Profile of one request (${workload.title})`,
    '',
    `\`npm run bench:profile -- --workload ${workload.name}\`: ${requests.toLocaleString('en-US')} requests in ${(measuredMs / 1000).toFixed(0)} s at 10 connections, ` +
      `the server under \`node --cpu-prof\` (sampling adds some cost of its own). Main-thread CPU per request: **${perRequest(busy)} µs**.`,
    '',
    '| Layer | µs per request | Share |',
    '|---|---:|---:|',
    ...[...layers]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => `| ${name} | ${perRequest(us)} | ${((us / busy) * 100).toFixed(0)}% |`),
    '',
    'Heaviest functions (self time):',
    '',
    '| Function | µs per request |',
    '|---|---:|',
    ...[...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, us]) => `| \`${name}\` | ${perRequest(us)} |`),
  ];
  const out = join(repoRoot, 'bench', 'results', 'profile.md');
  writeFileSync(out, `${lines.join('\n')}\n`);
  log(lines.join('\n'));
  log(`Wrote ${out}`);
}

await main();
