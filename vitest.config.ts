import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Generous: a test that spawns processes or drives a browser can take seconds on a busy two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every answer a test receives is checked against the OpenAPI document; the run ends with its coverage.
    setupFiles: ['test/setup/contract.setup.ts'],
    globalSetup: ['test/setup/contract-coverage.ts'],
  },
});
