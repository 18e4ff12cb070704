import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Generous: a test that spawns processes or drives a browser can take seconds on a busy two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A test file at a time per core, and at least two: vitest's default (one fewer than the cores) ran the files one
    // by one on a two-core machine, where most of a file's time is its process starting and waiting on children.
    maxWorkers: Math.max(2, availableParallelism()),
    // Every answer a test receives is checked against the OpenAPI document; the run ends with its coverage.
    setupFiles: ['test/setup/contract.setup.ts'],
    globalSetup: ['test/setup/contract-coverage.ts'],
  },
});
