// Import runs recorded in the store (issue 36, item 5): every `hearth import`, pull, demo or connector run, however it
// ends, is a row that `hearth import history` lists and that a server's /metrics reads, whichever process ran it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, tags as baseTags } from '../../fixtures/community.js';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/db/store.js';
import { insertImportRun } from '../../src/import-runs/import-runs.repository.js';
import { importLines, importStream } from '../../src/import/import.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'hearth-import-runs-'));
const baseFile = join(dir, 'base.ndjson');
const tagIds = baseTags.map((tag) => tag.id).sort();

beforeAll(async () => {
  t = await createTestApp();
  writeFileSync(baseFile, baseRecords.map((r) => JSON.stringify(r)).join('\n'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The command line in this process, on the test's store and clock, as another process than the server. */
async function hearth(args: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url },
    { progress: new PassThrough(), stdin: Readable.from([stdin]), stdout: new PassThrough() },
    () => t.clock.now,
  );
  return { code, out, err };
}

/** The import samples a newly started server answers on /metrics (its read of the store is its first). */
async function importSamples(store: Store = t.testStore.store): Promise<string[]> {
  const app = await buildApp(loadConfig({}, { databaseUrl: t.testStore.url }), { store, logger: false });
  try {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    return res.body.split('\n').filter((line) => line.startsWith('hearth_import_'));
  } finally {
    await app.close();
  }
}

/** The samples whose exact value does not depend on how long the imports took. */
const countable = (samples: string[]) =>
  samples.filter((line) => !/^hearth_import_duration_seconds_(bucket\{le="(?!\+Inf|3600")|sum)/.test(line));

const seconds = (ms: number) => String(ms / 1000);
const wire = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')}000+00`;

describe('import runs', () => {
  let acme: string;
  /** When the first import ran, on the test's clock. */
  let firstAt: number;

  it('a command-line import shows in the server’s metrics, read from the store', async () => {
    expect(countable(await importSamples())).toEqual([
      'hearth_import_duration_seconds_bucket{le="3600"} 0',
      'hearth_import_duration_seconds_bucket{le="+Inf"} 0',
      'hearth_import_duration_seconds_count 0',
    ]);
    acme = await t.community('acme');
    firstAt = t.clock.now;
    const imported = await hearth(['import', '--community', 'acme', baseFile]);
    expect(imported.code).toBe(0);
    expect(countable(await importSamples())).toEqual([
      'hearth_import_runs_total{source="import",outcome="completed"} 1',
      'hearth_import_records_total{kind="feeds"} 4',
      'hearth_import_records_total{kind="profiles"} 2',
      'hearth_import_records_total{kind="tags"} 2',
      'hearth_import_records_total{kind="calendar_events"} 7',
      'hearth_import_records_total{kind="posts"} 0',
      'hearth_import_records_total{kind="comments"} 0',
      'hearth_import_duration_seconds_bucket{le="3600"} 1',
      'hearth_import_duration_seconds_bucket{le="+Inf"} 1',
      'hearth_import_duration_seconds_count 1',
      `hearth_import_last_completed_timestamp_seconds{source="import"} ${seconds(firstAt)}`,
    ]);
  });

  it('records a refused import as refused, and keeps nothing else of it', async () => {
    t.clock.now += 60_000;
    const refused = await hearth(
      ['import', '--community', 'acme', '-'],
      '{"kind":"tag","id":"t-new","label":"New"}\n{"kind":"tag","id":"u"}\n',
    );
    expect(refused).toEqual({
      code: 1,
      out: [],
      err: ['hearth: Import failed, nothing was kept: line 2: tag: label is required'],
    });
    // Nothing of the file: not its good line, not an audit record.
    const tags = await t.testStore.store.db.selectFrom('tags').select('id').where('community_id', '=', acme).execute();
    expect(tags.map((tag) => tag.id).sort()).toEqual(tagIds);
    expect(JSON.parse((await hearth(['audit', '--community', 'acme', '--json'])).out.join('\n'))).toHaveLength(1);

    const history = await hearth(['import', 'history', '--community', 'acme', '--json']);
    expect(history.code).toBe(0);
    expect(JSON.parse(history.out.join('\n'))).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        community: 'acme',
        source: 'import',
        origin: 'stdin',
        outcome: 'refused',
        started_at: wire(t.clock.now),
        finished_at: wire(t.clock.now),
        duration_ms: expect.any(Number),
        // Records read: the one good line before the refused one.
        records: 1,
        written: { feeds: 0, profiles: 0, tags: 0, calendar_events: 0, posts: 0, comments: 0 },
        error: 'line 2: tag: label is required',
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        community: 'acme',
        source: 'import',
        origin: baseFile,
        outcome: 'completed',
        started_at: wire(firstAt),
        finished_at: wire(firstAt),
        duration_ms: expect.any(Number),
        records: 15,
        written: { feeds: 4, profiles: 2, tags: 2, calendar_events: 7, posts: 0, comments: 0 },
        error: null,
      },
    ]);

    const samples = countable(await importSamples());
    expect(samples.slice(0, 3)).toEqual([
      'hearth_import_runs_total{source="import",outcome="completed"} 1',
      'hearth_import_runs_total{source="import",outcome="refused"} 1',
      'hearth_import_records_total{kind="feeds"} 4',
    ]);
    expect(samples).toContain('hearth_import_records_total{kind="tags"} 2');
    expect(samples).toContain('hearth_import_duration_seconds_count 1');
  });

  it('records a run broken by its input as failed, and one stopped by its signal as interrupted', async () => {
    const { store } = t.testStore;
    t.clock.now += 60_000;
    const failedAt = t.clock.now;
    // A stream that breaks after its first line, read from an address that carries credentials and a token.
    const broken = new Readable({
      read() {
        this.push('{"kind":"tag","id":"t-broken","label":"Broken"}\n');
        this.destroy(new Error('socket hang up reading https://reader:s3cret@files.example.com/x'));
      },
    });
    await expect(
      importStream(store, acme, broken, {
        clock: () => t.clock.now,
        origin: 'https://reader:s3cret@files.example.com/export.ndjson?token=abc#top',
      }),
    ).rejects.toThrow('socket hang up');

    t.clock.now += 60_000;
    const stop = new AbortController();
    // Lines that stop coming after the first: the import waits for the next until it is stopped.
    const stalled = (async function* () {
      yield '{"kind":"tag","id":"t-stalled","label":"Stalled"}';
      await new Promise(() => {});
    })();
    const stopped = importLines(store, acme, stalled, {
      clock: () => t.clock.now,
      source: 'pull',
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(new Error('stopped by its user')), 50);
    await expect(stopped).rejects.toThrow('stopped by its user');

    const history = await hearth(['import', 'history', '--community', 'acme', '--limit', '2']);
    expect(history.err).toEqual([]);
    expect(history.out).toEqual([
      'started_at\tcommunity\tsource\toutcome\trecords\tduration_ms\torigin\terror',
      expect.stringMatching(
        new RegExp(`^${escapeRegExp(wire(t.clock.now))}\tacme\tpull\tinterrupted\t0\t\\d+\t-\tstopped by its user$`),
      ),
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(wire(failedAt))}\tacme\timport\tfailed\t0\t\\d+\thttps://files\\.example\\.com/export\\.ndjson\tsocket hang up reading https://files\\.example\\.com/x$`,
        ),
      ),
    ]);
    const tags = await store.db.selectFrom('tags').select('id').where('id', 'like', 't-%').execute();
    expect(tags).toEqual([]);
    expect(countable(await importSamples()).slice(0, 4)).toEqual([
      'hearth_import_runs_total{source="import",outcome="completed"} 1',
      'hearth_import_runs_total{source="import",outcome="failed"} 1',
      'hearth_import_runs_total{source="import",outcome="refused"} 1',
      'hearth_import_runs_total{source="pull",outcome="interrupted"} 1',
    ]);
  });

  it('lists the runs of every community, newest first, limited, in tab-separated lines or JSON', async () => {
    const other = await t.community('other');
    const at = Date.parse('2026-04-01T08:30:00.250Z');
    const counts = { feeds: 0, profiles: 0, tags: 0, calendar_events: 0, posts: 0, comments: 0 };
    for (const [i, run] of [
      { source: 'demo', origin: 'seed 1', outcome: 'completed', records: 611, posts: 120, error: null },
      { source: 'slack', origin: null, outcome: 'failed', records: 12, posts: 0, error: 'the export has no channels' },
    ].entries()) {
      await insertImportRun(t.testStore.store.db, {
        id: `00000000-0000-4000-8000-00000000000${i}`,
        community_id: other,
        source: run.source,
        origin: run.origin,
        started_at: wire(at + i * 1000).slice(0, -3),
        finished_at: wire(at + i * 1000 + 1500).slice(0, -3),
        duration_ms: 1500,
        outcome: run.outcome as 'completed' | 'failed',
        records: run.records,
        ...counts,
        posts: run.posts,
        error: run.error,
      });
    }
    expect(await hearth(['import', 'history', '--community', 'other'])).toEqual({
      code: 0,
      out: [
        'started_at\tcommunity\tsource\toutcome\trecords\tduration_ms\torigin\terror',
        '2026-04-01 08:30:01.250000+00\tother\tslack\tfailed\t12\t1500\t-\tthe export has no channels',
        '2026-04-01 08:30:00.250000+00\tother\tdemo\tcompleted\t611\t1500\tseed 1\t-',
      ],
      err: [],
    });
    // The community may come before the subcommand too.
    expect((await hearth(['import', '--community', 'other', 'history', '--limit', '1'])).out).toEqual([
      'started_at\tcommunity\tsource\toutcome\trecords\tduration_ms\torigin\terror',
      '2026-04-01 08:30:01.250000+00\tother\tslack\tfailed\t12\t1500\t-\tthe export has no channels',
    ]);
    expect(JSON.parse((await hearth(['import', 'history', '--limit', '1', '--json'])).out.join('\n'))).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000001',
        community: 'other',
        source: 'slack',
        origin: null,
        outcome: 'failed',
        started_at: '2026-04-01 08:30:01.250000+00',
        finished_at: '2026-04-01 08:30:02.750000+00',
        duration_ms: 1500,
        records: 12,
        written: counts,
        error: 'the export has no channels',
      },
    ]);
    // Every community, newest first: these two, then acme's four, then nothing more.
    const all = await hearth(['import', 'history']);
    expect(all.out.map((line) => line.split('\t').slice(1, 4).join(' '))).toEqual([
      'community source outcome',
      'other slack failed',
      'other demo completed',
      'acme pull interrupted',
      'acme import failed',
      'acme import refused',
      'acme import completed',
    ]);
  });

  it('says why it lists nothing, and refuses a bad limit or an unknown community', async () => {
    await t.community('empty');
    expect(await hearth(['import', 'history', '--community', 'empty'])).toEqual({
      code: 0,
      out: ['started_at\tcommunity\tsource\toutcome\trecords\tduration_ms\torigin\terror'],
      err: ["No import runs recorded for 'empty' yet."],
    });
    expect(await hearth(['import', 'history', '--community', 'empty', '--json'])).toEqual({
      code: 0,
      out: ['[]'],
      err: [],
    });
    expect(await hearth(['import', 'history', '--limit', '0'])).toEqual({
      code: 1,
      out: [],
      err: ["hearth: Invalid limit '0': use a whole number from 1 to 10000."],
    });
    expect(await hearth(['import', 'history', '--community', 'nope'])).toEqual({
      code: 1,
      out: [],
      err: ["hearth: No community with slug 'nope'."],
    });
    // `import` itself still needs its community.
    expect(await hearth(['import', baseFile])).toEqual({
      code: 2,
      out: [],
      err: ["error: required option '--community <slug>' not specified"],
    });
  });

  it('a scrape while the store cannot answer keeps the last totals read', async () => {
    const store = openStore(t.testStore.url, 1);
    const app = await buildApp(loadConfig({}, { databaseUrl: t.testStore.url }), { store, logger: false });
    try {
      const scrape = async () => {
        const res = await app.inject({ method: 'GET', url: '/metrics' });
        expect(res.statusCode).toBe(200);
        return res.body.split('\n').filter((line) => line.startsWith('hearth_import_runs_total'));
      };
      const before = await scrape();
      expect(before).toHaveLength(6);
      await store.close();
      // Past the second for which a read is kept: the store is asked again, and cannot answer.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await scrape()).toEqual(before);
    } finally {
      await app.close();
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
