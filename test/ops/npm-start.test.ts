// `npm start` is one process: it fills the demo once, reuses its token, serves, and on SIGTERM (sent to npm, as a
// process manager does) finishes the request in flight and exits 0, leaving nothing listening.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../helpers/test-store.js';
import { ensureBuilt, freePort, root, watch } from '../helpers/processes.js';

// Made when the tests run (skipped on PostgreSQL, where no afterAll would remove it).
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-start-'));
  ensureBuilt();
}, 180_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function npmStart(port: number) {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: join(dir, 'hearth.db'), PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watch(child);
  const [, token] = await watched.waitFor(/^ {2}curl -H "Authorization: Bearer (hth_[\w-]+)"/m);
  return { child, watched, token: token ?? '' };
}

/** A POST whose body is sent in two halves, the second when `second` is called; resolves with status and body. */
function slowPost(port: number, token: string, body: string) {
  let answer: Promise<{ status: number; body: string }> = Promise.resolve({ status: 0, body: '' });
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/admin/v0/members',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { finish: () => req.end(body.slice(half)), answer };
}

describe.skipIf(Boolean(testDatabaseUrl))('npm start', () => {
  it('fills the demo, serves, and on SIGTERM to npm drains the request in flight and exits 0', async () => {
    const port = await freePort();
    const { child, watched, token } = await npmStart(port);
    expect(watched.out.split('\n').slice(0, 5)).toEqual([
      "Demo community 'demo' ready: 6 feeds, 40 profiles, 9 tags, 30 calendar_events, 120 posts, 406 comments.",
      expect.stringMatching(/^Imported 611 records in \d+\.\d s \(\d+ records\/s\)\.$/),
      '',
      `Token (scopes read, members:write): ${token}`,
      'Try:',
    ]);
    expect(watched.out).toContain(
      `"http://127.0.0.1:${port}/admin/v0/calendar_events?time_filter=upcoming&per_page=2"`,
    );
    // The console's address and a sign-in link for the demo's operator, which opens the sign-in page.
    const [, link] = await watched.waitFor(/^Sign in as demo@example\.com \(once, within 15 minutes\): (http:\S+)$/m);
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/console/sign-in\\?link=hsl_[\\w-]{43}$`));
    expect(watched.out).toContain(`Console: http://127.0.0.1:${port}/console\n`);
    const signIn = await fetch(String(link));
    expect([signIn.status, (await signIn.text()).includes('This link signs you in once.')]).toEqual([200, true]);
    // The token is kept beside the database, readable by its owner only.
    expect(statSync(join(dir, 'hearth.db-demo-token')).mode & 0o777).toBe(0o600);

    const events = await fetch(`http://127.0.0.1:${port}/admin/v0/calendar_events?time_filter=upcoming&per_page=2`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(events.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    // The demo's import, read from the store's record of runs.
    expect(metrics).toContain('hearth_import_runs_total{source="demo",outcome="completed"} 1');
    expect(metrics).toContain('hearth_import_records_total{kind="posts"} 120');
    expect(metrics).toContain('hearth_import_duration_seconds_count 1');

    const inFlight = slowPost(port, token, JSON.stringify({ email: 'late@example.com', full_name: 'Late Arrival' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    inFlight.finish();
    const answered = await inFlight.answer;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.body)).toMatchObject({
      success: true,
      data: { member: { email: 'late@example.com', full_name: 'Late Arrival' } },
    });

    expect(await watched.exited).toBe(0);
    // Nothing is left serving: the server was the process npm started, not an orphan beside it.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('on the next start, does not fill the demo again and prints the same token', async () => {
    const first = statSync(join(dir, 'hearth.db-demo-token')).mtimeMs;
    const port = await freePort();
    const { child, watched, token } = await npmStart(port);
    expect(watched.out.split('\n').slice(0, 3)).toEqual([
      "Demo community 'demo' holds 612 records and 1 token(s); not filled again.",
      '',
      `Token (scopes read, members:write; the same as last time): ${token}`,
    ]);
    expect(statSync(join(dir, 'hearth.db-demo-token')).mtimeMs).toBe(first);
    child.kill('SIGTERM');
    expect(await watched.exited).toBe(0);
  }, 120_000);
});
