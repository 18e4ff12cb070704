// `hearth pull` against a second Hearth process serving hosted-mode tokens: after a pull every answer of the copy
// equals the original's (event times in UTC); a run that fails keeps nothing and the next one resumes at the page
// it stopped on.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore } from '../../src/db/store.js';
import { eventTimesInUtc } from '../helpers/event-times.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-store.js';
import { seedCommunity } from '../helpers/seed.js';
import { announcements, generalTwin } from '../../fixtures/feeds.js';
import { partnerEvent, threadPost } from '../fixtures/hosted.js';
import { postRecords } from '../../fixtures/posts.js';

const records = [...postRecords, announcements, generalTwin, partnerEvent, threadPost];
const dir = mkdtempSync(join(tmpdir(), 'hearth-pull-'));

let origin: Awaited<ReturnType<typeof createTestDatabase>>;
let child: ChildProcess;
let originUrl: string;
/** Tokens of the original, per field-name mode. */
const originTokens = { spec: '', hosted: '' };
let t: TestApp;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  origin = await createTestDatabase();
  const store = openStore(origin.url, 2);
  await migrateToLatest(store.db, store.dialect);
  const seeded = await seedCommunity(store, 'origin', { name: 'Origin Makers', records });
  originTokens.spec = seeded.token;
  originTokens.hosted = await seeded.newToken(['read'], { fieldNames: 'hosted' });
  await store.close();

  const port = await freePort();
  originUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', String(port)], {
    env: { ...process.env, DATABASE_URL: origin.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Hearth serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`hearth exited with ${code}: ${stderr}`)));
  });
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  if (child && child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  await t?.close();
  await origin?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url },
  );
  return { code, out, err };
}

type Ask = (path: string) => Promise<[number, unknown]>;
const askOrigin =
  (token: string): Ask =>
  async (path) => {
    const res = await fetch(`${originUrl}/admin/v0${path}`, { headers: { authorization: `Bearer ${token}` } });
    return [res.status, await res.json()];
  };
const askCopy =
  (token: string): Ask =>
  async (path) => {
    const res = await t.get(`/admin/v0${path}`, token);
    return [res.statusCode, res.json()];
  };

type Row = { id: string };
/** Every answer about feeds, events and posts, in one field-name mode (comments are not listable, so not copied). */
async function answers(ask: Ask): Promise<unknown[]> {
  const out: unknown[] = [];
  const data = async (path: string) => {
    const [status, body] = await ask(path);
    out.push([path, status, body]);
    return (body as { data: { records: Row[] } }).data;
  };
  for (const feed of (await data('/feeds?per_page=100')).records) {
    await data(`/feeds/${feed.id}`);
    for (const sort of ['newest', 'oldest', 'most-recent-activity'])
      await data(`/feeds/${feed.id}/posts?per_page=100&sort=${sort}`);
  }
  await data('/feeds?is_archived=false&per_page=3&page=1');
  for (const status of ['published', 'draft', 'needs_approval']) {
    for (const event of (await data(`/calendar_events?status=${status}&per_page=100`)).records)
      await data(`/calendar_events/${event.id}`);
  }
  await data('/calendar_events?date_filter=2026-03-08');
  await data('/calendar_events?per_page=2&page=1');
  for (const post of (await data('/feeds/home/posts?per_page=100')).records) await data(`/posts/${post.id}`);
  await data('/search?type=post&q=welcome&highlight=true');
  await data('/search?type=post&q=meetup');
  return out;
}

/**
 * Through a spec-mode token events' reminders (shown in hosted mode only) are not seen, so only spec answers compare.
 * The API shows no event's time zone, so the copy answers its events' times in UTC.
 */
async function expectSameAnswers(
  copyCommunity: string,
  modes: readonly ('spec' | 'hosted')[] = ['spec', 'hosted'],
): Promise<void> {
  for (const fieldNames of modes) {
    const before = await answers(askOrigin(originTokens[fieldNames]));
    const after = await answers(askCopy(await t.token(copyCommunity, ['read'], { fieldNames })));
    expect(after).toEqual(eventTimesInUtc(before));
    expect(before).toHaveLength(49);
  }
}

describe('hearth pull from a second Hearth process', () => {
  it('copies feeds, events and posts through a hosted-mode token: every answer of the copy equals the original', async () => {
    const copy = await t.community('copy');
    const state = join(dir, 'state-1');
    const result = await run([
      'pull',
      '--from',
      `${originUrl}/admin/v0/`,
      '--token',
      originTokens.hosted,
      '--community',
      'copy',
      '--state',
      state,
    ]);
    expect(result.err).toEqual([
      `Source ${originUrl}/admin/v0: community 'origin' (Origin Makers), token in hosted field names.`,
      'feeds: page 1 of 1, 6 records',
      'calendar events (published): page 1 of 1, 7 records',
      'calendar events (draft): page 1 of 1, 1 records',
      'calendar events (needs_approval): page 1 of 1, 0 records',
      "posts of feed 'Events & Meetups': page 1 of 1, 2 records",
      "posts of feed 'General': page 1 of 1, 0 records",
      "posts of feed 'General': page 1 of 1, 5 records",
      "posts of feed 'Old stuff': page 1 of 1, 1 records",
      "posts of feed 'Staff': page 1 of 1, 1 records",
      "posts of feed 'announcements': page 1 of 1, 0 records",
      "Importing 23 records into 'copy' in one transaction…",
    ]);
    expect(result).toMatchObject({
      code: 0,
      out: [
        `Pulled 23 records from ${originUrl}/admin/v0 into 'copy': 6 feeds, 2 profiles, 2 tags, 8 calendar_events, 9 posts.`,
      ],
    });
    expect(existsSync(state)).toBe(false);
    await expectSameAnswers(copy);
  });

  it('pulls as well through a spec-mode token, and a second pull changes nothing', async () => {
    const copy = await t.community('copy-spec');
    for (let i = 0; i < 2; i++) {
      const result = await run([
        'pull',
        '--from',
        originUrl,
        '--token',
        originTokens.spec,
        '--community',
        'copy-spec',
        '--state',
        join(dir, 'state-2'),
        '--per-page',
        '3',
      ]);
      expect([result.code, result.out]).toEqual([
        0,
        [
          `Pulled 23 records from ${originUrl}/admin/v0 into 'copy-spec': 6 feeds, 2 profiles, 2 tags, 8 calendar_events, 9 posts.`,
        ],
      ]);
      expect(result.err).toContain('calendar events (published): page 3 of 3, 1 records');
      expect(result.err[1]).toBe(
        "Events' reminders_config is shown to hosted-mode tokens only: pull through one to copy it.",
      );
    }
    await expectSameAnswers(copy, ['spec']);
  });

  it('refuses a bad token, an unknown community and bad flags without writing anything', async () => {
    const bad = await run([
      'pull',
      '--from',
      originUrl,
      '--token',
      'hth_nope',
      '--community',
      'copy',
      '--state',
      join(dir, 'state-3'),
    ]);
    expect(bad).toEqual({
      code: 1,
      out: [],
      err: [
        `hearth: GET ${originUrl}/admin/v0/api_key/me answered 401: The bearer token is unknown, revoked or expired; check --token`,
      ],
    });
    // A closed port or a wrong path cannot heal: they fail at once, with the default 5 retries.
    const closedPort = await freePort();
    const started = performance.now();
    expect(
      await run(['pull', '--from', `http://127.0.0.1:${closedPort}`, '--token', 'x', '--community', 'copy']),
    ).toEqual({
      code: 1,
      out: [],
      err: [
        `hearth: GET http://127.0.0.1:${closedPort}/admin/v0/api_key/me failed: connect ECONNREFUSED 127.0.0.1:${closedPort} (nothing listens there: check the host and port of --from); not retried.`,
      ],
    });
    expect(performance.now() - started).toBeLessThan(2000);
    const wrongPath = await run(['pull', '--from', `${originUrl}/nowhere`, '--token', 'x', '--community', 'copy']);
    expect(wrongPath.err.at(-1)).toBe(
      `hearth: GET ${originUrl}/nowhere/admin/v0/feeds?page=0&per_page=100 answered 404: No route GET /nowhere/admin/v0/feeds; check --from: is ${originUrl}/nowhere/admin/v0 the API's address?`,
    );
    expect((await run(['pull', '--from', originUrl, '--token', 'x', '--community', 'nowhere'])).err).toEqual([
      "hearth: No community with slug 'nowhere'.",
    ]);
    expect((await run(['pull', '--from', 'ftp://example.com', '--token', 'x', '--community', 'copy'])).err).toEqual([
      "hearth: --from 'ftp://example.com' must be an http or https URL.",
    ]);
    expect(
      (await run(['pull', '--from', originUrl, '--token', 'x', '--community', 'copy', '--per-page', '500'])).err,
    ).toEqual(["hearth: Invalid --per-page '500': an integer from 1 to 100."]);
  });
});

/** A proxy in front of the original that logs the paths asked and does what the test says to some requests. */
function proxy(
  decide: (path: string, n: number) => 'pass' | 'drop' | '429' | 'corrupt',
): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const target = new URL(originUrl);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    paths.push(path.replace('/admin/v0', ''));
    const action = decide(path, paths.length);
    if (action === 'drop') return void req.socket.destroy();
    if (action === '429')
      return void res
        .writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' })
        .end('{"success":false,"error":"Slow down."}');
    // Bodies are read (and corrupted) as text: asked for uncompressed, whatever the client accepts.
    const { 'accept-encoding': _accepted, ...headers } = req.headers;
    const upstream = httpRequest({ host: target.hostname, port: target.port, path, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let body = Buffer.concat(chunks).toString();
        // A record the import must refuse: a post whose feed.id is not its feed_id.
        if (action === 'corrupt')
          body = body.replace(/"feed":\{"id":"[^"]+"/, '"feed":{"id":"00000000-0000-4000-8000-000000000000"');
        res.writeHead(answer.statusCode ?? 500, { 'content-type': 'application/json' }).end(body);
      });
    });
    upstream.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server }),
    ),
  );
}

describe('a pull that fails', () => {
  it('keeps nothing, and the next run resumes at the page it stopped on, waiting out a 429', async () => {
    const copy = await t.community('copy-resumed');
    const state = join(dir, 'state-4');
    let failing = true;
    let limited = false;
    const { url, paths, server } = await proxy((path) => {
      if (failing && path.includes('status=draft')) return 'drop';
      if (!failing && !limited && path.includes('sort=oldest')) {
        limited = true;
        return '429';
      }
      return 'pass';
    });
    const args = [
      'pull',
      '--from',
      url,
      '--token',
      originTokens.hosted,
      '--community',
      'copy-resumed',
      '--state',
      state,
      '--per-page',
      '2',
    ];

    const failed = await run([...args, '--retries', '0']);
    expect(failed.code).toBe(1);
    expect(failed.err.at(-1)).toMatch(
      new RegExp(`^hearth: GET ${url}/admin/v0/calendar_events\\?status=draft&page=0&per_page=2 failed: `),
    );
    expect(failed.err).toContain('calendar events (published): page 4 of 4, 1 records');
    const firstRun = paths.splice(0);
    expect(firstRun).toEqual([
      '/api_key/me',
      ...[0, 1, 2].map((page) => `/feeds?page=${page}&per_page=2`),
      ...[0, 1, 2, 3].map((page) => `/calendar_events?status=published&page=${page}&per_page=2`),
      '/calendar_events?status=draft&page=0&per_page=2',
    ]);
    // All or nothing: the run fetched 13 records, the store holds none of them.
    expect((await t.get('/admin/v0/feeds', await t.token(copy))).json().data.total_records).toBe(0);
    expect(existsSync(join(state, 'state.json'))).toBe(true);

    failing = false;
    const resumed = await run([...args, '--retries', '1']);
    expect(resumed.code).toBe(0);
    expect(resumed.err[0]).toBe(`Resuming the pull kept in ${state}: 13 records fetched so far.`);
    expect(resumed.err).toContain('  429 Slow down.; retrying in 0.0 s');
    // The second run starts at the page the first one failed on.
    expect(paths.slice(0, 3)).toEqual([
      '/api_key/me',
      '/calendar_events?status=draft&page=0&per_page=2',
      '/calendar_events?status=needs_approval&page=0&per_page=2',
    ]);
    expect(paths.filter((p) => p.startsWith('/feeds?') || p.includes('status=published'))).toEqual([]);
    expect(resumed.out).toEqual([
      `Pulled 23 records from ${url}/admin/v0 into 'copy-resumed': 6 feeds, 2 profiles, 2 tags, 8 calendar_events, 9 posts.`,
    ]);
    server.close();
    await expectSameAnswers(copy);
  });

  it('refuses a record the import cannot take, naming its line, and keeps nothing until a restart', async () => {
    const copy = await t.community('copy-refused');
    const state = join(dir, 'state-5');
    let corrupt = true;
    const { url, server } = await proxy((path) => (corrupt && path.includes('/posts?') ? 'corrupt' : 'pass'));
    const args = ['pull', '--from', url, '--token', originTokens.spec, '--community', 'copy-refused', '--state', state];
    const refused = await run(args);
    expect(refused.code).toBe(1);
    expect(refused.err.at(-1)).toMatch(
      // The import names every bad line in one run: all four corrupted posts.
      new RegExp(
        `^hearth: Import failed, nothing was kept: 4 problems:\\n` +
          [15, 17, 22, 23]
            .map(
              (line) =>
                `line ${line}: feed\\.id '00000000-0000-4000-8000-000000000000' is not the post's feed_id '[0-9a-f-]+'`,
            )
            .join('\\n') +
          `\\. The records fetched stay in ${state}/records\\.ndjson; running the pull again only imports\\.$`,
      ),
    );
    expect((await t.get('/admin/v0/feeds', await t.token(copy))).json().data.total_records).toBe(0);
    corrupt = false;
    expect((await run([...args, '--restart'])).code).toBe(0);
    server.close();
    await expectSameAnswers(copy, ['spec']);

    // Both runs are recorded as the pull's, with the address read: the refused one with nothing written.
    const history = await run(['import', 'history', '--community', 'copy-refused', '--json']);
    expect(history.code).toBe(0);
    const runs = (JSON.parse(history.out.join('\n')) as Record<string, unknown>[]).map(
      ({ id, started_at, finished_at, duration_ms, ...run }) => run,
    );
    expect(runs).toEqual([
      {
        community: 'copy-refused',
        source: 'pull',
        origin: `${url}/admin/v0`,
        outcome: 'completed',
        records: 23,
        written: { feeds: 6, profiles: 2, tags: 2, calendar_events: 8, posts: 9, comments: 0 },
        error: null,
      },
      {
        community: 'copy-refused',
        source: 'pull',
        origin: `${url}/admin/v0`,
        outcome: 'refused',
        records: 19,
        written: { feeds: 0, profiles: 0, tags: 0, calendar_events: 0, posts: 0, comments: 0 },
        error: expect.stringMatching(
          /^4 problems: line 15: feed\.id '00000000-0000-4000-8000-000000000000' is not the post's feed_id '[0-9a-f-]+' line 17: /,
        ),
      },
    ]);
  });
});
