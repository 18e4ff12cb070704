// The benchmark's import chart: its bars, target lines and figures for given results, and its link in the report.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderImportChart } from '../../bench/import-chart.js';
import { importChartFile, importResultsFile, importSection } from '../../bench/report.js';
import type { ImportResult, ImportResults } from '../../bench/results.js';

const run = (name: string, title: string, records: number, seconds: number, peakRssMb: number): ImportResult => ({
  name,
  title,
  description: `${title} described`,
  records,
  seconds,
  recordsPerSecond: records / seconds,
  peakRssMb,
});

const sqlite: ImportResults = {
  finishedAt: '2026-11-24T10:00:00.000Z',
  store: 'sqlite',
  scale: 300,
  seed: 1,
  imports: [
    run('import-empty', 'Import, empty community', 4_000, 0.2, 120.4),
    run('import-populated', 'Import, populated community', 1_000, 0.5, 620),
  ],
  targets: [],
};
const postgres: ImportResults = {
  finishedAt: '2026-11-23T09:00:00.000Z',
  store: 'postgres',
  scale: 100_000,
  seed: 1,
  imports: [run('import-empty', 'Import, empty & fresh', 123_456, 10, 313)],
  targets: [],
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('renderImportChart', () => {
  const svg = renderImportChart([sqlite, postgres]);

  it('titles the chart with the scale of each store', () => {
    expect(svg).toContain('>Import (records/s, higher is better): SQLite, 300 posts; PostgreSQL, 100,000 posts</text>');
    expect(svg).toContain('>SQLite, 300 posts (seed 1, 2026-11-24)</text>');
    expect(svg).toContain('>PostgreSQL, 100,000 posts (seed 1, 2026-11-23)</text>');
  });

  it('labels each bar with its workload, escaped', () => {
    expect(svg).toContain('text-anchor="end" font-size="11">Import, empty community</text>');
    expect(svg).toContain('text-anchor="end" font-size="11">Import, populated community</text>');
    expect(svg).toContain('text-anchor="end" font-size="11">Import, empty &amp; fresh</text>');
    expect(svg).toContain('<title>SQLite, Import, empty community: 20,000 records/s</title>');
  });

  it("draws and labels each workload's target for its store", () => {
    expect(svg).toContain('>target ≥ 20,000/s</text>');
    expect(svg).toContain('>target ≥ 8,000/s</text>');
    expect(svg).toContain('>target ≥ 10,000/s</text>');
    // The 20,000 target sets the axis: 25k over 740 px from x = 200, so 20,000 lands at 792.
    expect(svg).toContain(
      '<line x1="792.0" x2="792.0" y1="138.0" y2="168.0" stroke="#000" stroke-width="2"><title>target ≥ 20,000 records/s</title></line>',
    );
    expect(svg).toContain('<rect x="200.0" y="142.0" width="592.0" height="22.0" fill="#d9480f">');
  });

  it('gives the figures of each import, peak RSS against its target included', () => {
    expect(svg).toContain(
      '>20,000 records/s (target ≥ 20,000: met); 4,000 records in 0.2 s; peak RSS 120 MB (target ≤ 500 MB: met)</text>',
    );
    expect(svg).toContain(
      '>2,000 records/s (target ≥ 8,000: missed); 1,000 records in 0.5 s; peak RSS 620 MB (target ≤ 500 MB: missed)</text>',
    );
    expect(svg).toContain(
      '>12,346 records/s (target ≥ 10,000: met); 123,456 records in 10.0 s; peak RSS 313 MB (target ≤ 500 MB: met)</text>',
    );
  });
});

describe('importSection', () => {
  it('links the chart relative to the report, once it has been drawn', () => {
    const root = mkdtempSync(join(tmpdir(), 'hearth-import-chart-'));
    dirs.push(root);
    const results = join(root, 'bench', 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(importResultsFile(results, 'sqlite'), JSON.stringify(sqlite));
    expect(importSection(results, join(root, 'BENCHMARKS.md'))).not.toContain('import-chart.svg');
    writeFileSync(importChartFile(results), renderImportChart([sqlite]));
    expect(importSection(results, join(root, 'BENCHMARKS.md'))).toContain(
      '\n![Import records/s per store and workload against the targets, with peak RSS](bench/results/import-chart.svg)\n',
    );
    expect(importSection(results, join(results, 'BENCHMARKS.md'))).toContain('](import-chart.svg)');
  });
});
