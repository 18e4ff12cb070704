#!/usr/bin/env node
// `npm test`: lint and format check (Biome), type-check, run the whole suite on SQLite, then again on
// PostgreSQL when a server answers (TEST_DATABASE_URL, or the local default); says plainly when that half is skipped.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const defaultUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
const extra = process.argv.slice(2);

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n${label} failed.`);
    process.exit(result.status ?? 1);
  }
}

async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

run('lint and format (Biome)', 'npx', ['biome', 'ci', '.']);
run('type check', 'npx', ['tsc', '--noEmit']);
run('tests on SQLite', 'npx', ['vitest', 'run', ...extra], { TEST_DATABASE_URL: '' });

const url = process.env.TEST_DATABASE_URL || defaultUrl;
if (process.env.HEARTH_SKIP_POSTGRES === '1') {
  console.log('\nPostgreSQL half skipped: HEARTH_SKIP_POSTGRES=1.');
} else if (await reachable(url)) {
  run(`tests on PostgreSQL (${url.replace(/\/\/[^@/]*@/, '//***@')})`, 'npx', ['vitest', 'run', ...extra], {
    TEST_DATABASE_URL: url,
  });
} else {
  console.log(`\nPostgreSQL half SKIPPED: no PostgreSQL answers at ${url}. Set TEST_DATABASE_URL to run it.`);
}
