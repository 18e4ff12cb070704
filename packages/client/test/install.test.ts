// The client as an outside project gets it: `npm install <path>` into a scratch folder outside the workspace builds
// and copies the package, the README's example compiles there under `strict` and runs against a live server with the demo data.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRecords } from '../../../src/demo/demo-records.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { testDatabaseUrl } from '../../../test/helpers/test-store.js';

// Asynchronous: the server under test answers from this same process while the children run.
const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;
const clientDir = join(root, 'packages/client');
const scratch = mkdtempSync(join(tmpdir(), 'hearth-client-user-'));

/** The README's example: the ts block after the `<!-- example` marker. */
function readmeExample(): string {
  const readme = readFileSync(join(clientDir, 'README.md'), 'utf8');
  const block = /<!-- example[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('packages/client/README.md has no example block');
  return block;
}

// Once is enough: what is tested is the package, not the store (the client's own tests run on both).
describe.skipIf(Boolean(testDatabaseUrl))('@hearth/client installed in a project of its own', () => {
  let t: TestApp;
  let baseUrl: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ now: Date.now() });
    const community = await t.community('demo');
    // The records `hearth demo` imports (its default seed is 1): the README's ids must be among them.
    await t.importRecords(community, [...demoRecords({ now: Date.now(), seed: 1 })]);
    token = await t.token(community, ['read']);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    baseUrl = `http://127.0.0.1:${address.port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with npm, compiles the README example under strict, and runs it', async () => {
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'hearth-client-user', private: true, type: 'module' }),
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          outDir: 'out',
          // Only `process` for the environment comes from outside the package: Node's types from the workspace.
          typeRoots: [join(root, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['example.ts'],
      }),
    );
    writeFileSync(join(scratch, 'example.ts'), readmeExample());

    // --install-links: a packed copy (its `prepare` builds dist/) with its own dependencies, not a link into the workspace.
    await run(
      'npm',
      ['install', '--install-links', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', clientDir],
      {
        cwd: scratch,
        timeout: 180_000,
      },
    );
    const installed = JSON.parse(readFileSync(join(scratch, 'node_modules/@hearth/client/package.json'), 'utf8')) as {
      name: string;
    };
    expect(installed.name).toBe('@hearth/client');
    expect(readFileSync(join(scratch, 'node_modules/@hearth/client/dist/index.d.ts'), 'utf8')).toContain(
      'createHearthClient',
    );

    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch });
    const { stdout: output } = await run(process.execPath, [join(scratch, 'out/example.js')], {
      cwd: scratch,
      env: { ...process.env, HEARTH_URL: baseUrl, HEARTH_TOKEN: token },
      timeout: 30_000,
    });

    const get = async <T>(path: string): Promise<T> => (await t.get(path, token)).json<{ data: T }>().data;
    type Event = { title: string; start_date: string; end_date: string | null };
    const event = await get<Event>('/admin/v0/calendar_events/dziua2etq06n');
    const post = await get<{
      title: string | null;
      author: { preferred_name: string } | null;
      feed: { label: string };
    }>('/admin/v0/posts/7hn1rd1dgu7f');
    const upcoming = await get<{ records: Event[] }>('/admin/v0/calendar_events?time_filter=upcoming&per_page=100');
    const found = await get<{ total_records: number; records: { title: string }[] }>(
      '/admin/v0/search?q=meetup&type=post&per_page=3',
    );
    expect(output.trimEnd().split('\n')).toEqual([
      `${event.title}: ${event.start_date} to ${event.end_date}`,
      `${post.title ?? '(untitled)'} by ${post.author?.preferred_name ?? 'nobody'} in ${post.feed.label}`,
      ...upcoming.records.map((e) => `- ${e.start_date} ${e.title}`),
      `${found.total_records} posts about meetups; first: ${found.records[0]?.title ?? '-'}`,
      "404 not_found: Post 'nosuchpost01' was not found.",
    ]);
    expect(upcoming.records.length).toBeGreaterThan(5);
    expect(found.total_records).toBeGreaterThan(0);
  }, 240_000);
});
