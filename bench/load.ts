// The load generator, run as its own process: autocannon against one target, URLs in rotation.
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { percentile, Samples } from './stats.js';

// With the harness: warm up, print `ready`, wait for a line on stdin, measure, print `result <json>`.

export interface LoadJob {
  baseUrl: string;
  /** Paths with query strings, requested in this order, round and round. */
  paths: string[];
  headers: Record<string, string>;
  /** With `paths`: the `If-None-Match` of each request; every answer must then be 304. */
  etags?: string[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadOutcome {
  requests: number;
  non2xx: number;
  /** 503 answers: shed by the server's deadline, timed with the others. */
  shed: number;
  errors: number;
  seconds: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

function run(job: LoadJob, seconds: number, latencies: Samples | null): Promise<LoadOutcome> {
  let next = 0;
  let requests = 0;
  let non2xx = 0;
  let shed = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.baseUrl,
        connections: job.connections,
        duration: seconds,
        headers: job.headers,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => {
              const i = next++ % job.paths.length;
              const path = job.paths[i] ?? '/';
              const etag = job.etags?.[i];
              return etag === undefined
                ? { ...request, path }
                : { ...request, path, headers: { ...request.headers, 'if-none-match': etag } };
            },
          },
        ],
      },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const sorted = latencies?.sorted() ?? new Float64Array(0);
        resolve({
          requests,
          non2xx,
          shed,
          errors: result.errors,
          seconds: (performance.now() - started) / 1000,
          p50Ms: percentile(sorted, 50),
          p95Ms: percentile(sorted, 95),
          p99Ms: percentile(sorted, 99),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      requests++;
      const expected = job.etags ? statusCode === 304 : statusCode >= 200 && statusCode <= 299;
      if (statusCode === 503 && !job.etags) {
        shed++;
        latencies?.add(responseTime);
      } else if (!expected) non2xx++;
      else latencies?.add(responseTime);
    });
  });
}

function firstLine(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.once('line', () => {
      lines.close();
      // Nothing more comes on stdin; an open stdin would keep this process alive.
      process.stdin.destroy();
      resolve();
    });
  });
}

const jobFile = process.argv[2];
if (!jobFile) throw new Error('usage: load.ts <job.json>');
const job = JSON.parse(readFileSync(jobFile, 'utf8')) as LoadJob;
rmSync(jobFile, { force: true });
// The harness gone (interrupted), there is nobody to report to.
process.stdout.on('error', () => process.exit(1));
if (job.warmupSeconds > 0) await run(job, job.warmupSeconds, null);
process.stdout.write('ready\n');
await firstLine();
const outcome = await run(job, job.durationSeconds, new Samples());
// Exit once the result is out: a socket or timer the load library left open must not keep this process (and the
// harness waiting on it) alive.
process.stdout.write(`result ${JSON.stringify(outcome)}\n`, () => process.exit(0));
