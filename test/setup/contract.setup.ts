// Per test file: fails the test that received an answer breaking the OpenAPI contract, and writes out the pairs covered for the final report.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, inject } from 'vitest';
import { contractLog, describeViolations, takeViolations } from '../helpers/contract.js';

afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) throw new Error(describeViolations(violations));
});

afterAll(() => {
  if (contractLog.documented.size === 0) return;
  const file = join(inject('contractCoverageDir'), `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify({ documented: [...contractLog.documented], covered: [...contractLog.covered] }));
});
