// The import workloads: `hearth import` of the demo corpus as NDJSON into an empty community and into a populated one,
// and `hearth slack import` of a generated Slack export of as many messages as the corpus has posts.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { demoRecords, demoSize } from '../src/demo/demo-records.js';
import { hearthBin, repoRoot, runHearth } from './processes.js';
import { peakRssMb } from './proc-stats.js';
import { ensureSlackExport } from './slack-export.js';
import type { ImportResult } from './results.js';

/** The demo's "now" for the import files: fixed, so that the same scale and seed always give the same bytes. */
const NOW = Date.UTC(2026, 0, 1);

export const importWorkloadNames = ['import-empty', 'import-populated', 'slack-import', 'slack-events'] as const;

export interface ImportFiles {
  /** Every record of the corpus. */
  all: string;
  /** Feeds, profiles, tags, events and the first half of the posts with their comments: what the populated community holds. */
  base: string;
  /** The second half of the posts with their comments: what is imported into the populated community. */
  extra: string;
  records: { all: number; base: number; extra: number };
  /** A Slack workspace export of `scale` messages (bench/slack-export.ts). */
  slack: string;
}

async function writeLines(path: string, lines: Iterable<string>): Promise<number> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let count = 0;
  for (const line of lines) {
    count++;
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
  return count;
}

/** The corpus as NDJSON files (built once per scale and seed, kept beside the SQLite corpus). */
export async function ensureImportFiles(
  dir: string,
  scale: number,
  seed: number,
  log: (text: string) => void,
): Promise<ImportFiles> {
  mkdirSync(dir, { recursive: true });
  const name = (part: string) => join(dir, `import-${scale}-seed-${seed}-${part}.ndjson`);
  const files = { all: name('all'), base: name('base'), extra: name('extra') };
  const half = Math.floor(demoSize(scale).posts / 2);
  const split = function* (wanted: 'base' | 'extra' | 'all') {
    let posts = 0;
    for (const record of demoRecords({ now: NOW, scale, seed })) {
      if (record['kind'] === 'post') posts++;
      const inExtra = posts > half;
      if (wanted === 'all' || (wanted === 'extra') === inExtra) yield JSON.stringify(record);
    }
  };
  const records = { all: 0, base: 0, extra: 0 };
  for (const part of ['all', 'base', 'extra'] as const) {
    if (!existsSync(files[part])) {
      log(`Writing import file ${files[part]} ...`);
      await writeLines(files[part], split(part));
    }
    records[part] = await countLines(files[part]);
  }
  // `threads`: the export whose parents carry latest_reply (a name of its own, so an older cached export is not reused).
  const slack = join(dir, `slack-${scale}-seed-${seed}-threads.zip`);
  if (!existsSync(slack)) log(`Writing Slack export ${slack} ...`);
  await ensureSlackExport(slack, scale, seed);
  return { ...files, records, slack };
}

async function countLines(path: string): Promise<number> {
  const { createReadStream } = await import('node:fs');
  let count = 0;
  for await (const chunk of createReadStream(path)) for (const byte of chunk as Buffer) if (byte === 10) count++;
  return count;
}

interface ImportRun {
  records: number;
  /** Slack messages read (`hearth slack import`). */
  messages: number;
  seconds: number;
  peakRssMb: number;
}

/** `hearth import FILE` (or another import command), its own records/s figure, and its peak RSS (VmHWM, read until it exits). */
function timedImport(
  databaseUrl: string,
  file: string,
  community: string,
  extraArgs: string[] = [],
  command: string[] = ['import'],
): Promise<ImportRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...extraArgs, hearthBin, ...command, file, '--community', community, '--quiet'],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      },
    );
    let out = '';
    let err = '';
    let peak = 0;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setInterval(() => {
      try {
        if (child.pid !== undefined) peak = Math.max(peak, peakRssMb(child.pid));
      } catch {
        // Exiting; keep the last reading (VmHWM only grows).
      }
    }, 50);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const match = /Imported (\d+) records into .* in ([\d.]+) s/.exec(out);
      if (code !== 0 || !match) return reject(new Error(`hearth import exited ${code}:\n${err}${out}`));
      const messages = Number(/^Slack: (\d+) messages/m.exec(out)?.[1] ?? 0);
      resolve({ records: Number(match[1]), messages, seconds: Number(match[2]), peakRssMb: peak });
    });
  });
}

/**
 * Slack's Events API (bench/slack-events.ts, run in a process of its own): acknowledgements under a burst of 200
 * events/s for 5 s, then a backlog of up to 5,000 message events (no more than the corpus's posts) applied by one
 * process.
 */
function slackEvents(databaseUrl: string, scale: number): Promise<ImportResult> {
  const backlog = Math.min(5000, scale);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        join(repoRoot, 'bench/slack-events.ts'),
        '--json',
        '--seconds',
        '5',
        '--backlog',
        String(backlog),
      ],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/slack-events.ts exited ${code}:\n${err}${out}`));
      const figures = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
        load_average: number[];
        acknowledgement: { p99_ms: number; bare: { p99_ms: number } };
        application: { applied: number; seconds: number; per_second: number };
      };
      resolve({
        name: 'slack-events',
        title: 'Slack events applied',
        description: `Slack's Events API: ${backlog.toLocaleString('en-US')} message events applied by one process (events/s), after acknowledgements of a burst of 200 events/s for 5 s (p99 ${figures.acknowledgement.p99_ms} ms; bare server ${figures.acknowledgement.bare.p99_ms} ms; load average ${figures.load_average[0]})`,
        records: figures.application.applied,
        seconds: figures.application.seconds,
        recordsPerSecond: figures.application.per_second,
        peakRssMb: 0,
        ackP99Ms: figures.acknowledgement.p99_ms,
        ackBareP99Ms: figures.acknowledgement.bare.p99_ms,
        loadAverage: figures.load_average[0],
      });
    });
  });
}

/** A fresh database of its own for each workload: SQLite a file in `dir`, PostgreSQL a database on the server. */
export async function freshDatabase(
  store: 'sqlite' | 'postgres',
  dir: string,
  postgresUrl: string,
  label: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (store === 'sqlite') {
    const path = join(dir, `import-${label}.db`);
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    };
    remove();
    return { url: path, drop: async () => remove() };
  }
  const name = `hearth_bench_import_${label.replace(/-/g, '_')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: postgresUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** Runs the chosen import workloads on `store`; each gets a fresh database, dropped afterwards. */
export async function runImportWorkloads(options: {
  store: 'sqlite' | 'postgres';
  dir: string;
  postgresUrl: string;
  files: ImportFiles;
  names: readonly string[];
  log: (text: string) => void;
}): Promise<ImportResult[]> {
  const results: ImportResult[] = [];
  const { files, log } = options;
  for (const name of options.names) {
    // Named by the corpus's size too, so that a run at another scale beside this one does not remove its database.
    const db = await freshDatabase(options.store, options.dir, options.postgresUrl, `${name}-${files.records.all}`);
    try {
      if (name === 'slack-events') {
        const result = await slackEvents(db.url, files.records.all);
        log(
          `  ${result.title.padEnd(28)} ${Math.round(result.recordsPerSecond).toString().padStart(7)} events/s; acknowledgement p99 ${result.ackP99Ms} ms (bare ${result.ackBareP99Ms} ms), load ${result.loadAverage}`,
        );
        results.push(result);
        continue;
      }
      await runHearth(['community', 'create', 'bench'], { DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
      let run: ImportRun;
      let held = 0;
      if (name === 'slack-import') run = await timedImport(db.url, files.slack, 'bench', [], ['slack', 'import']);
      else if (name === 'import-empty') run = await timedImport(db.url, files.all, 'bench');
      else {
        const base = await timedImport(db.url, files.base, 'bench');
        held = base.records;
        run = await timedImport(db.url, files.extra, 'bench');
      }
      const result: ImportResult =
        name === 'slack-import'
          ? {
              name,
              title: 'Slack export import',
              description: `hearth slack import of a generated workspace export (${run.messages.toLocaleString('en-US')} messages, ${run.records.toLocaleString('en-US')} records) into a new, empty community; its figure is messages/s`,
              records: run.messages,
              seconds: run.seconds,
              recordsPerSecond: run.messages / run.seconds,
              peakRssMb: run.peakRssMb,
            }
          : {
              name,
              title: name === 'import-empty' ? 'Import, empty community' : 'Import, populated community',
              description:
                name === 'import-empty'
                  ? `hearth import of the whole corpus (${run.records.toLocaleString('en-US')} records) into a new, empty community`
                  : `hearth import of the second half of the posts with their comments (${run.records.toLocaleString('en-US')} records) ` +
                    `into a community already holding the rest (${held.toLocaleString('en-US')} records)`,
              records: run.records,
              seconds: run.seconds,
              recordsPerSecond: run.records / run.seconds,
              peakRssMb: run.peakRssMb,
            };
      log(
        `  ${result.title.padEnd(28)} ${Math.round(result.recordsPerSecond).toString().padStart(7)} records/s (${result.records} in ${result.seconds.toFixed(1)} s), peak RSS ${Math.round(result.peakRssMb)} MB`,
      );
      results.push(result);
    } finally {
      await db.drop();
    }
  }
  return results;
}
