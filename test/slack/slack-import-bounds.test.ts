// A Slack export's bounds and failures past the first records: an archive or an entry that expands too far, an entry
// whose headers lie about its size, and a broken day file after thousands of messages were already written in the
// import's transaction — each refused with the entry named, nothing kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSlackExport } from '../../src/slack/export-import.service.js';
import { SlackExportError } from '../../src/slack/export-zip.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ts, workspaceEntries } from '../helpers/slack-workspace.js';
import { writeZip, type ZipEntry } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-bounds-'));
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const zipOf = (entries: ZipEntry[]) => writeZip(join(dir, `bounds-${++n}.zip`), entries);

async function refused(
  entries: ZipEntry[],
  limits: { totalBytes: number; entryBytes: number } | undefined,
  message: string,
) {
  const id = await t.community(`bounds-${n + 1}`);
  const token = await t.token(id);
  const error = await importSlackExport(t.testStore.store, id, zipOf(entries), {
    clock: () => t.clock.now,
    writes: t.app.writes,
    limits,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SlackExportError);
  expect((error as Error).message).toBe(message);
  expect((await t.get('/admin/v0/feeds', token)).json().data.records).toEqual([]);
  expect((await t.get('/admin/v0/feeds/home/posts', token)).json().data.total_records).toBe(0);
}

describe('slack export bounds', () => {
  const zeros = { name: 'general/2026-03-05.json', data: `[${' '.repeat(2_000_000)}]` };

  it('refuses an archive that expands past its bound before reading anything', async () => {
    await refused(
      [...workspaceEntries(), zeros],
      { totalBytes: 1_000_000, entryBytes: 10_000_000 },
      "the archive expands past 1000000 bytes (at entry 'general/2026-03-05.json'); nothing was imported.",
    );
  });

  it('refuses an entry that expands past its bound', async () => {
    await refused(
      [...workspaceEntries(), zeros],
      { totalBytes: 10_000_000, entryBytes: 1_000_000 },
      "entry 'general/2026-03-05.json' expands to 2000002 bytes, past the bound of 1000000; nothing was imported.",
    );
  });

  it('refuses an entry that expands past what its headers declare', async () => {
    await refused(
      [...workspaceEntries(), { ...zeros, declaredSize: 100 }],
      undefined,
      "entry 'general/2026-03-05.json' cannot be read (too many bytes in the stream. expected 100. got at least 16384); nothing was imported.",
    );
  });

  it('keeps nothing when a day file fails after thousands of messages were written', async () => {
    const many = Array.from({ length: 4500 }, (_, i) => ({
      type: 'message',
      user: 'U02BOB',
      ts: ts(i, 1),
      text: `Message number ${i}`,
    }));
    await refused(
      [
        ...workspaceEntries({ days: { general: { '2026-03-01': many } } }),
        { name: 'random/2026-03-02.json', data: '[{"ts": "1772409600.000100", "user": "U01ALICE", "text": "cut' },
      ],
      undefined,
      "entry 'random/2026-03-02.json' is not valid JSON (Unterminated string in JSON at line 1, column 62); nothing was imported.",
    );
  });
});
