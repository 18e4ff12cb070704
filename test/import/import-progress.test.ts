// The import tells its progress phase by phase, in order, with the records read, for the time left to count them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportPhase } from '../../src/import/import-phases.js';
import { importLines } from '../../src/import/import.service.js';
import { ImportError } from '../../src/import/problems.js';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every report of an import of `lines`, and how it ended. */
async function reports(community: string, lines: string[], dryRun = false) {
  const heard: [ImportPhase, number][] = [];
  const ended = await importLines(t.testStore.store, community, lines, {
    dryRun,
    writes: t.app.writes,
    onProgress: (phase, records) => heard.push([phase, records]),
  }).then(
    (summary) => `${summary.records} records`,
    (error: unknown) => (error instanceof ImportError ? 'refused' : String(error)),
  );
  return { heard, ended };
}

const lines = baseRecords.map((record) => JSON.stringify(record));

describe('import progress', () => {
  it('reports reading chunk by chunk, then each phase after it as it begins', async () => {
    // 2,015 lines: the 15 records and 2,000 more tags, read in three chunks of up to 1,000 lines.
    const tags = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ kind: 'tag', id: `t${i}`, label: `T${i}` }));
    const { heard, ended } = await reports(await t.community('progress-phases'), [...lines, ...tags]);
    expect(ended).toBe('2015 records');
    expect(heard).toEqual([
      ['reading', 1000],
      ['reading', 2000],
      ['reading', 2015],
      ['reading', 2015],
      ['checking', 2015],
      ['indexing', 2015],
      ['rendering', 2015],
      ['searching', 2015],
      ['committing', 2015],
    ]);
  });

  it('reports reading and checking in a dry run, and no phase after a refused line', async () => {
    const community = await t.community('progress-dry');
    expect(await reports(community, lines, true)).toEqual({
      heard: [
        ['reading', 15],
        ['checking', 15],
      ],
      ended: '15 records',
    });
    const refused = await reports(community, [...lines, '{nope']);
    expect(refused.ended).toBe('refused');
    expect(refused.heard.map(([phase]) => phase)).toEqual(['reading', 'reading']);
  });
});
