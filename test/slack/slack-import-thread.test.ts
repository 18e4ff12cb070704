// A Slack export read in a thread of its own (how a large export is read) imports exactly what reading it in the
// importing thread does: the same rows, fragments, summary and tally; its failures are the same errors, nothing kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSlackExport, type SlackImportOptions } from '../../src/slack/export-import.service.js';
import { SlackExportError } from '../../src/slack/export-zip.js';
import { SlackChannelsError } from '../../src/slack/slack-source.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ts, workspaceEntries } from '../helpers/slack-workspace.js';
import { writeZip, type ZipEntry } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-thread-'));
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const zipOf = (entries: ZipEntry[]) => writeZip(join(dir, `thread-${++n}.zip`), entries);

/** Every row the import wrote for the community, without the community's id, in key order. */
async function rowsOf(communityId: string): Promise<Record<string, unknown[]>> {
  const db = t.testStore.store.db;
  const out: Record<string, unknown[]> = {};
  for (const table of ['feeds', 'profiles', 'posts', 'comments', 'fragments'] as const) {
    const rows = await db
      .selectFrom(table)
      .selectAll()
      .where('community_id', '=', communityId)
      .orderBy('id')
      .$if(table === 'fragments', (q) => q.orderBy('kind' as never))
      .execute();
    // A fragment's version says when it was rendered: again at the end for a post whose counters a later chunk
    // changed, and chunks end where their input's blocks or runs of lines do. Its body and references must agree.
    out[table] = rows.map(({ community_id: _, ...row }) => {
      if (table === 'fragments') delete (row as { version?: number }).version;
      return row;
    });
  }
  return out;
}

async function importBoth(entries: ZipEntry[], options: SlackImportOptions = {}) {
  const zip = zipOf(entries);
  const results = [];
  for (const thread of [false, true]) {
    const id = await t.community(`thread-${n}-${thread}`);
    const result = await importSlackExport(t.testStore.store, id, zip, {
      clock: () => t.clock.now,
      writes: t.app.writes,
      domain: 'acme',
      ...options,
      thread,
    });
    results.push({ result, rows: options.dryRun ? null : await rowsOf(id) });
  }
  return results;
}

/** The imports of a few thousand messages, twice over, on a machine other work shares. */
const SLOW = { timeout: 180_000 };

/** Messages enough for two of the reading thread's blocks (about 1 MiB of records each). */
const many = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    type: 'message',
    user: i % 3 === 0 ? 'U02BOB' : 'U01ALICE',
    ts: ts(i, 1),
    text: `Message number ${i} for <@U01ALICE> in <#C01GENERAL|general> :tada: see <https://example.com/${i}|the notes>`,
    ...(i % 4 === 1 ? { thread_ts: ts(i - 1, 1) } : {}),
    ...(i % 5 === 0 ? { reactions: [{ name: 'tada', users: ['U01ALICE', 'U02BOB'], count: 3 }] } : {}),
  }));

describe('slack export read in a thread', () => {
  it('imports the standard export exactly as reading it here does', async () => {
    const [here, thread] = await importBoth(workspaceEntries({ layout: 'grid' }), { includePrivate: true });
    expect(thread?.result).toEqual(here?.result);
    expect(thread?.result.imported).toEqual({
      records: 20,
      feeds: 3,
      profiles: 6,
      tags: 0,
      calendar_events: 0,
      posts: 8,
      comments: 3,
      badges: 0,
      groups: 0,
    });
    expect(thread?.rows).toEqual(here?.rows);
    expect(thread?.rows?.posts).toHaveLength(8);
  });

  it('imports an export of several blocks exactly as reading it here does, in order', SLOW, async () => {
    const [here, thread] = await importBoth(workspaceEntries({ days: { general: { '2026-03-01': many(2500) } } }));
    expect(thread?.result).toEqual(here?.result);
    expect(thread?.result.slack.messages).toBe(2501);
    expect([thread?.result.imported.posts, thread?.result.imported.comments]).toEqual([1876, 625]);
    expect(thread?.rows).toEqual(here?.rows);
  });

  it('checks a dry run the same way', async () => {
    const [here, thread] = await importBoth(workspaceEntries(), { dryRun: true });
    expect(thread?.result).toEqual(here?.result);
    expect(thread?.result.imported.records).toBe(18);
  });

  it('refuses a channel the export lacks before reading anything', async () => {
    const id = await t.community('thread-channels');
    const error = await importSlackExport(t.testStore.store, id, zipOf(workspaceEntries()), {
      writes: t.app.writes,
      channels: ['nowhere'],
      thread: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackChannelsError);
    expect((error as Error).message).toBe(
      "no channel 'nowhere' in the source (private channels need --include-private).",
    );
  });

  it('keeps nothing when a day file fails after blocks were written', SLOW, async () => {
    const id = await t.community('thread-broken');
    const token = await t.token(id);
    const error = await importSlackExport(
      t.testStore.store,
      id,
      zipOf([
        ...workspaceEntries({ days: { general: { '2026-03-01': many(2500) } } }),
        { name: 'random/2026-03-02.json', data: '[{"ts": "1772409600.000100", "user": "U01ALICE", "text": "cut' },
      ]),
      { clock: () => t.clock.now, writes: t.app.writes, thread: true },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackExportError);
    expect((error as Error).message).toBe(
      "entry 'random/2026-03-02.json' is not valid JSON (Unterminated string in JSON at line 1, column 62); nothing was imported.",
    );
    expect((await t.get('/admin/v0/feeds', token)).json().data.records).toEqual([]);
    expect((await t.get('/admin/v0/feeds/home/posts', token)).json().data.total_records).toBe(0);
  });
});
