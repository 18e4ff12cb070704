// `hearth start` on a terminal (a pseudo-terminal from util-linux `script`): the server's lines are readable ones
// among the demo's friendly output, never raw JSON; a request is one line, a probe none at info.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, root } from '../helpers/processes.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux') === true;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  ensureBuilt();
  database = await createTestDatabase();
}, 180_000);
afterAll(() => database?.drop());

/** The screen as text: colours, carriage returns and what differs between runs (times, durations, secrets) made plain. */
const screen = (raw: string) =>
  stripVTControlCharacters(raw)
    .replace(/\r/g, '')
    .replace(/^\[\d\d:\d\d:\d\d\]/gm, '[time]')
    .replace(/ \d+\.\d ms$/gm, ' N ms')
    .replace(/in \d+\.\d s \(\d+ records\/s\)/g, 'in N s (N records/s)')
    .replace(/hth_[\w-]+/g, 'hth_TOKEN')
    .replace(/hsl_[\w-]+/g, 'hsl_LINK')
    .split('\n');

describe.runIf(hasScript)('hearth start on a terminal', () => {
  it('writes the listening line and each request as readable lines, and no probe at info', async () => {
    const port = await freePort();
    const command = `exec ${process.execPath} ${join(root, 'bin/hearth.js')} start --quiet --port ${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'info', TERM: 'xterm' };
    delete env['LOG_FORMAT'];
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let raw = '';
    child.stdout.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    const closed = new Promise((resolve) => child.once('close', resolve));
    try {
      const deadline = Date.now() + 90_000;
      const answered = async (path: string) => {
        while (Date.now() < deadline && child.exitCode === null) {
          try {
            return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        throw new Error(`hearth start did not answer:\n${raw}`);
      };
      expect(await answered('/healthz')).toBe(200);
      // The curl line is printed just after listening; the request's line follows it.
      while (!raw.includes('curl') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await answered('/admin/v0/members')).toBe(401);
      const logged = Date.now() + 10_000;
      while (!raw.includes('GET /admin/v0/members') && Date.now() < logged)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    const where = `http://127.0.0.1:${port}`;
    const lines = screen(raw);
    expect(lines.slice(0, lines.indexOf(`[time] INFO: GET /admin/v0/members 401 N ms`) + 1)).toEqual([
      "Demo community 'demo' ready: 6 feeds, 40 profiles, 9 tags, 30 calendar_events, 120 posts, 406 comments.",
      'Imported 611 records in N s (N records/s).',
      `[time] INFO: Server listening at ${where}`,
      `Hearth serving ${where}/admin/v0 (store: ${testDatabaseUrl ? 'postgres' : 'sqlite'}); docs at ${where}/docs, metrics at ${where}/metrics.`,
      '',
      'Token (scopes read, members:write): hth_TOKEN',
      'Try:',
      `  curl -H "Authorization: Bearer hth_TOKEN" "http://127.0.0.1:${port}/admin/v0/calendar_events?time_filter=upcoming&per_page=2"`,
      '',
      `Console: ${where}/console`,
      `Sign in as demo@example.com (once, within 15 minutes): ${where}/console/sign-in?link=hsl_LINK`,
      'A new link later: hearth operator link --email demo@example.com',
      '[time] INFO: GET /admin/v0/members 401 N ms',
    ]);
    expect(lines.filter((line) => line.startsWith('{') || line.includes('/healthz'))).toEqual([]);
  }, 120_000);
});
