// The benchmark corpus: `hearth demo --scale N` into SQLite, built once per scale, seed and schema, kept in bench/.corpus/.
import { spawn } from 'node:child_process';
import { SqliteDriver as Database } from '../src/db/sqlite-driver.js';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthBin, repoRoot } from './processes.js';
import { cpuSeconds } from './proc-stats.js';
import type { CorpusInfo } from './results.js';
import type { Store } from '../src/db/store.js';

export const COMMUNITY = 'demo';

/** The id of the corpus's community in an opened corpus store. */
export async function corpusCommunityId(store: Store): Promise<string> {
  const row = await store.db.selectFrom('communities').select('id').where('slug', '=', COMMUNITY).executeTakeFirst();
  if (!row) throw new Error(`No community '${COMMUNITY}' in the database`);
  return row.id;
}

/** A hash of the migrations: a corpus built under another schema is not reused. */
export function schemaVersion(): string {
  const hash = createHash('sha256');
  const folder = join(repoRoot, 'src', 'db', 'migrations');
  for (const name of readdirSync(folder).sort()) hash.update(name).update(readFileSync(join(folder, name)));
  hash.update(readFileSync(join(repoRoot, 'src', 'db', 'migrate.ts')));
  return hash.digest('hex').slice(0, 10);
}

function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

interface DemoRun {
  stdout: string;
  seconds: number;
  cpuSeconds: number;
}

/** Runs `hearth demo` into `path`, printing progress now and then (a million posts take minutes). */
function runDemo(path: string, scale: number, seed: number, log: (text: string) => void): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [hearthBin, 'demo', '--community', COMMUNITY, '--scale', String(scale), '--seed', String(seed)],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: path, LOG_LEVEL: 'warn' },
      },
    );
    let stdout = '';
    let stderr = '';
    let cpu = 0;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let ticks = 0;
    const timer = setInterval(() => {
      try {
        if (child.pid !== undefined) cpu = cpuSeconds(child.pid);
      } catch {
        // The process is exiting; keep the last reading.
      }
      if (++ticks % 30 === 0) {
        const mb = existsSync(path) ? statSync(path).size / 2 ** 20 : 0;
        const wal = existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size / 2 ** 20 : 0;
        if (path.startsWith('postgres')) return log(`  building corpus: ${ticks} s, CPU ${Math.round(cpu)} s`);
        log(`  building corpus: ${ticks} s, database ${Math.round(mb + wal)} MB, CPU ${Math.round(cpu)} s`);
      }
    }, 1000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`hearth demo exited ${code}:\n${stderr}${stdout}`));
      resolve({ stdout, seconds: (performance.now() - started) / 1000, cpuSeconds: cpu });
    });
  });
}

function parseDemoOutput(
  stdout: string,
): Pick<CorpusInfo, 'records' | 'counts' | 'importSeconds' | 'importRecordsPerSecond'> {
  const imported = /Imported (\d+) records in ([\d.]+) s \((\d+) records\/s\)/.exec(stdout);
  const ready = /ready: ([^\n]*)\.\n/.exec(stdout);
  if (!imported || !ready) throw new Error(`Unexpected output from hearth demo:\n${stdout}`);
  const counts: Record<string, number> = {};
  for (const part of (ready[1] ?? '').split(', ')) {
    const [count, kind] = part.split(' ');
    if (count !== undefined && kind !== undefined) counts[kind] = Number(count);
  }
  return {
    records: Number(imported[1]),
    counts,
    importSeconds: Number(imported[2]),
    importRecordsPerSecond: Number(imported[3]),
  };
}

const TABLES = ['feeds', 'profiles', 'tags', 'calendar_events', 'posts', 'comments'] as const;

/** Why a kept corpus no longer holds what its build imported (a table dropped or changed by hand), or null. */
function damage(path: string, info: CorpusInfo): string | null {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    for (const table of TABLES) {
      const expected = info.counts[table] ?? 0;
      const exists = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
      if (!exists) return `table ${table} is missing`;
      const { n } = db.prepare(`select count(*) as n from ${table}`).get() as { n: number };
      if (n !== expected) return `${table} holds ${n} rows, the build imported ${expected}`;
    }
    return null;
  } finally {
    db.close();
  }
}

/** A finished corpus of this scale and seed under another schema, by key, if any. */
function olderCorpus(dir: string, scale: number, seed: number, key: string): string | null {
  const prefix = `posts-${scale}-seed-${seed}-schema-`;
  const keys = readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .filter((name) => name !== key && existsSync(join(dir, `${name}.db`)));
  return keys[0] ?? null;
}

function runHearthCommand(args: string[], databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hearthBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`hearth ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * The same corpus in PostgreSQL (`--store postgres`): `hearth demo` with the same scale and seed into a database
 * of its own, kept between runs. The demo is deterministic, so its ids are those of the SQLite corpus.
 */
export async function ensurePostgresCorpus(options: {
  serverUrl: string;
  scale: number;
  seed: number;
  rebuild: boolean;
  log: (text: string) => void;
}): Promise<string> {
  const name = `hearth_bench_${options.scale}_${options.seed}_${schemaVersion()}`;
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: options.serverUrl });
  await admin.connect();
  let migrate = false;
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (exists && !options.rebuild) {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const done = await db.query('select 1 from communities where slug = $1', [COMMUNITY]).then(
        (r) => r.rowCount === 1,
        () => false,
      );
      await db.end();
      if (done) {
        options.log(`Reusing PostgreSQL corpus ${name}.`);
        return url.toString();
      }
    }
    const older =
      exists || options.rebuild
        ? null
        : (
            await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
              `hearth_bench_${options.scale}_${options.seed}_%`,
            ])
          ).rows[0]?.datname;
    if (older) {
      // The same records under an older schema: renamed and migrated forward, as an upgrade would.
      options.log(`Migrating PostgreSQL corpus ${older} to ${name} ...`);
      await admin.query(`alter database ${older} rename to ${name}`);
      migrate = true;
    } else {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
  } finally {
    await admin.end();
  }
  if (migrate) {
    await runHearthCommand(['migrate'], url.toString());
    return url.toString();
  }
  options.log(`Building PostgreSQL corpus ${name}: hearth demo --scale ${options.scale} --seed ${options.seed} ...`);
  const run = await runDemo(url.toString(), options.scale, options.seed, options.log);
  options.log(`PostgreSQL corpus built: ${run.stdout.match(/Imported [^\n]*/)?.[0] ?? ''}`);
  return url.toString();
}

export interface Corpus {
  path: string;
  info: CorpusInfo;
}

/** The corpus for this scale and seed: reused when one was built under the same schema, else built now. */
export async function ensureCorpus(options: {
  dir: string;
  scale: number;
  seed: number;
  rebuild: boolean;
  log: (text: string) => void;
}): Promise<Corpus> {
  const { dir, scale, seed, log } = options;
  const schema = schemaVersion();
  const key = `posts-${scale}-seed-${seed}-schema-${schema}`;
  const path = join(dir, `${key}.db`);
  const metaPath = join(dir, `${key}.json`);
  mkdirSync(dir, { recursive: true });
  if (!options.rebuild && existsSync(path) && existsSync(metaPath)) {
    const info = JSON.parse(readFileSync(metaPath, 'utf8')) as CorpusInfo;
    const problem = damage(path, info);
    if (!problem) {
      log(`Reusing corpus ${key} (built ${info.builtAt}).`);
      return { path, info: { ...info, reused: true } };
    }
    log(`The kept corpus ${key} is damaged (${problem}); building it again.`);
  }
  const older = olderCorpus(dir, scale, seed, key);
  if (!options.rebuild && older) {
    // Same records under an older schema: migrating it forward (as an upgrade would) is minutes, not a rebuild.
    log(`Migrating corpus ${older} to schema ${schema} (hearth migrate) ...`);
    const migrating = join(dir, `${key}.building.db`);
    removeDatabase(migrating);
    renameSync(join(dir, `${older}.db`), migrating);
    const started = performance.now();
    await runHearthCommand(['migrate'], migrating);
    removeDatabase(path);
    renameSync(migrating, path);
    const info = JSON.parse(readFileSync(join(dir, `${older}.json`), 'utf8')) as CorpusInfo;
    rmSync(join(dir, `${older}.json`), { force: true });
    const migrated: CorpusInfo = {
      ...info,
      key,
      schema,
      reused: false,
      databaseMb: statSync(path).size / 2 ** 20,
      migratedFrom: info.key,
      migrationSeconds: (performance.now() - started) / 1000,
    };
    writeFileSync(metaPath, `${JSON.stringify(migrated, null, 2)}\n`);
    log(`Corpus migrated in ${migrated.migrationSeconds?.toFixed(0)} s.`);
    return { path, info: migrated };
  }
  // Built under a temporary name: an interrupted build is never mistaken for a finished one.
  const building = join(dir, `${key}.building.db`);
  removeDatabase(building);
  removeDatabase(path);
  log(`Building corpus ${key}: hearth demo --scale ${scale} --seed ${seed} ...`);
  const run = await runDemo(building, scale, seed, log);
  // A cleanly closed SQLite database has folded its WAL back in; renaming it alone is then safe.
  if (existsSync(`${building}-wal`) && statSync(`${building}-wal`).size > 0)
    throw new Error('The corpus database was not closed cleanly');
  removeDatabase(path);
  renameSync(building, path);
  removeDatabase(building);
  const info: CorpusInfo = {
    key,
    scale,
    seed,
    schema,
    reused: false,
    ...parseDemoOutput(run.stdout),
    processSeconds: run.seconds,
    processCpuSeconds: run.cpuSeconds,
    databaseMb: statSync(path).size / 2 ** 20,
    builtAt: new Date().toISOString(),
  };
  writeFileSync(metaPath, `${JSON.stringify(info, null, 2)}\n`);
  log(
    `Corpus built: ${info.records} records in ${info.importSeconds.toFixed(1)} s (${info.importRecordsPerSecond} records/s).`,
  );
  return { path, info };
}
