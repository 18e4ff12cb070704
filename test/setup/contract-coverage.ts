// Vitest global setup: gathers the operation×status pairs every test file exercised and prints the contract coverage at the end of the run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    contractCoverageDir: string;
  }
}

interface FileCoverage {
  documented: string[];
  covered: string[];
}

export function coverageReport(files: FileCoverage[]): string {
  const documented = new Set(files.flatMap((f) => f.documented));
  const covered = new Set(files.flatMap((f) => f.covered));
  if (documented.size === 0) return 'Contract coverage: no documented operation was called.';
  const byOperation = new Map<string, string[]>();
  for (const pair of [...documented].sort()) {
    const [operationId = '', status = ''] = pair.split(' ');
    byOperation.set(operationId, [
      ...(byOperation.get(operationId) ?? []),
      `${status}${covered.has(pair) ? '✓' : '·'}`,
    ]);
  }
  const width = Math.max(...[...byOperation.keys()].map((k) => k.length));
  const hits = [...documented].filter((pair) => covered.has(pair)).length;
  const lines = [...byOperation].map(
    ([operationId, statuses]) => `  ${operationId.padEnd(width)}  ${statuses.join(' ')}`,
  );
  return [
    `Contract coverage: ${hits} of ${documented.size} documented operation×status pairs answered and validated (✓ seen, · not seen)`,
    ...lines,
  ].join('\n');
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-contract-'));
  project.provide('contractCoverageDir', dir);
  return () => {
    const files = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as FileCoverage);
    rmSync(dir, { recursive: true, force: true });
    if (files.length > 0) console.log(`\n${coverageReport(files)}\n`);
  };
}
