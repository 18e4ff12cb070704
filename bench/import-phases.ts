// The share of an import's time each phase takes, and the time left its progress showed against the time it took:
// `npx tsx bench/import-phases.ts [--store postgres] [--scale 32000] [--populated] [--dry-run]`. The shares in
// src/import/import-phases.ts are this script's figures for an empty community.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMigratedStore } from '../src/cli/open-store.js';
import { createProgress, formatSeconds } from '../src/cli/progress.js';
import { createCommunitiesService } from '../src/communities/communities.service.js';
import { importShares, type ImportPhase } from '../src/import/import-phases.js';
import { importStream } from '../src/import/import.service.js';
import { ensureImportFiles, freshDatabase } from './import-workload.js';
import { repoRoot } from './processes.js';

const log = (text: string) => process.stderr.write(`${text}\n`);
const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    scale: { type: 'string', default: '32000' },
    populated: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  },
});
const store = values.store === 'postgres' ? 'postgres' : 'sqlite';
const scale = Number(values.scale);
const dryRun = values['dry-run'] === true;
const dir = join(repoRoot, 'bench', '.corpus');
const files = await ensureImportFiles(dir, scale, 1, log);
const db = await freshDatabase(
  store,
  dir,
  process.env['BENCH_POSTGRES_URL'] || 'postgres://postgres@127.0.0.1:5432/postgres',
  `phases-${scale}`,
);
const opened = await openMigratedStore(db.url, 2);
try {
  const community = await createCommunitiesService(opened.db, opened.dialect).create('bench', 'bench');
  if (values.populated) await importStream(opened, community.id, createReadStream(files.base));
  const file = values.populated ? files.extra : files.all;
  const input = createReadStream(file);
  const { size } = await import('node:fs').then((fs) => fs.statSync(file));
  // Every line the progress would draw, with when it was drawn.
  const shown: { at: number; line: string }[] = [];
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const progress = createProgress({
    label: 'import',
    quiet: false,
    everySeconds: 0,
    stream: { write: (line) => shown.push({ at: seconds(), line: line.trim() }) > 0 },
    phases: importShares(opened.dialect.name, { dryRun }),
  });
  // Reading begins with the import (its first report comes after the first chunk).
  const began = new Map<ImportPhase, number>([['reading', 0]]);
  const summary = await importStream(opened, community.id, input, {
    dryRun,
    onProgress(phase, records) {
      if (!began.has(phase)) began.set(phase, seconds());
      progress.update(records, phase === 'reading' ? Math.min(1, input.bytesRead / size) : null, phase);
    },
  });
  const total = seconds();
  log(
    `${opened.dialect.name}, ${dryRun ? 'dry run, ' : ''}${values.populated ? 'populated' : 'empty'} community: ${summary.records} records in ${total.toFixed(1)} s`,
  );
  const phases = [...began.entries()];
  phases.forEach(([phase, at], index) => {
    const took = (phases[index + 1]?.[1] ?? total) - at;
    log(`  ${phase.padEnd(11)} ${took.toFixed(2).padStart(7)} s  ${((100 * took) / total).toFixed(1).padStart(5)}%`);
  });
  const readingEnded = shown.find((s) => s.line.endsWith(', checking'));
  if (readingEnded)
    log(
      `  reading done (${readingEnded.at.toFixed(1)} s): "${readingEnded.line}"; ${formatSeconds(total - readingEnded.at)} were left`,
    );
  for (const share of [0.25, 0.5, 0.75]) {
    const last = shown.filter((s) => s.at <= share * total).at(-1);
    if (!last) continue;
    log(`  at ${share * 100}% (${last.at.toFixed(1)} s): "${last.line}"; ${formatSeconds(total - last.at)} were left`);
  }
} finally {
  await opened.close();
  await db.drop();
}
