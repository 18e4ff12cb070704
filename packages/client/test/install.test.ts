// The client as an outside project gets it from a clean clone (nothing installed there): `npm install <folder>` and
// the packed tarball each build and install it; every README example compiles under the strictest common compiler
// options and under plain `strict`, and the runnable ones run against a live server with the demo data.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRecords } from '../../../src/demo/demo-records.js';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { testDatabaseUrl } from '../../../test/helpers/test-store.js';

// Asynchronous: the server under test answers from this same process while the children run.
const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;
const clientDir = join(root, 'packages/client');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// Made when the tests run, so that a run that skips them leaves nothing behind.
let scratch = '';
// npm as a person runs it: nothing of a surrounding `npm test` (its prefix, its scripts' settings) leaks in.
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** A clone as `git clone` leaves it: the root's package.json (a workspace) and the client's files, no node_modules, no dist. */
function cleanClone(name: string): string {
  const clone = join(scratch, name);
  mkdirSync(join(clone, 'packages'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(clone, file));
  const left = new Set(['node_modules', 'dist'].map((entry) => join(clientDir, entry)));
  cpSync(clientDir, join(clone, 'packages/client'), {
    recursive: true,
    filter: (source) => !left.has(source) && !source.endsWith('.tgz'),
  });
  return clone;
}

/** The README's TypeScript blocks: runnable examples (after an `<!-- example` marker) and snippets using `hearth`. */
function readmeBlocks(): { runnable: string[]; snippets: string[] } {
  const readme = readFileSync(join(clientDir, 'README.md'), 'utf8');
  const runnable: string[] = [];
  const snippets: string[] = [];
  for (const [, marker, code] of readme.matchAll(/(<!-- example[^>]*-->\n)?```ts\n([\s\S]*?)```/g)) {
    (marker ? runnable : snippets).push(code ?? '');
  }
  return { runnable, snippets };
}

const strictest = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
};

/** A project of its own that uses the client: its examples, and a tsconfig per set of options. */
function userProject(name: string): string {
  const project = join(scratch, name);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const { runnable, snippets } = readmeBlocks();
  const files: string[] = [];
  runnable.forEach((code, i) => {
    files.push(`example-${i + 1}.ts`);
    writeFileSync(join(project, `example-${i + 1}.ts`), code);
  });
  // A snippet uses `hearth`, a client, and the package's exports; it is compiled, not run.
  const preamble =
    "import { createHearthClient, HearthError, paginate } from '@hearth/client';\n" +
    'declare const hearth: ReturnType<typeof createHearthClient>;\n' +
    'export { HearthError, paginate };\n';
  snippets.forEach((code, i) => {
    files.push(`snippet-${i + 1}.ts`);
    writeFileSync(join(project, `snippet-${i + 1}.ts`), preamble + code);
  });
  const tsconfig = (options: object, outDir: string) =>
    JSON.stringify({
      compilerOptions: {
        ...options,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        // As `tsc --init` sets it: declaration files are checked where they are used, not one by one.
        skipLibCheck: true,
        outDir,
        // Only `process` and `console` come from outside the package: Node's types from the workspace.
        typeRoots: [join(root, 'node_modules/@types')],
        types: ['node'],
      },
      files,
    });
  writeFileSync(join(project, 'tsconfig.json'), tsconfig(strictest, 'out'));
  writeFileSync(join(project, 'tsconfig.strict.json'), tsconfig({ strict: true }, 'out-strict'));
  expect(files.filter((file) => file.startsWith('example-'))).toEqual(['example-1.ts', 'example-2.ts']);
  expect(files.length).toBeGreaterThan(6);
  return project;
}

/** Compiles the project's examples; tsc's own report on failure. */
async function compile(project: string, tsconfig: string): Promise<void> {
  await run(process.execPath, [tsc, '-p', join(project, tsconfig)], { cwd: project }).catch((error: unknown) => {
    const { stdout = '' } = error as { stdout?: string };
    throw new Error(`tsc -p ${tsconfig} failed:\n${stdout}`);
  });
}

// Once is enough: what is tested is the package, not the store (the client's own tests run on both).
describe.skipIf(Boolean(testDatabaseUrl))(
  '@hearth/client installed from a clean clone into a project of its own',
  () => {
    let t: TestApp;
    let baseUrl: string;
    let reader: string;
    let writer: string;

    beforeAll(async () => {
      scratch = mkdtempSync(join(tmpdir(), 'hearth-client-user-'));
      t = await createTestApp({ now: Date.now() });
      const community = await t.community('demo');
      // The records `hearth demo` imports (its default seed is 1): the README's ids must be among them.
      await t.importRecords(community, [...demoRecords({ now: Date.now(), seed: 1 })]);
      reader = await t.token(community, ['read']);
      writer = await t.token(community, ['read', 'events:write']);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
      baseUrl = `http://127.0.0.1:${address.port}`;
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    const get = async <T>(path: string): Promise<T> => (await t.get(path, reader)).json<{ data: T }>().data;
    const runExample = async (project: string, file: string, token: string): Promise<string[]> => {
      const { stdout } = await run(process.execPath, [join(project, 'out', file)], {
        cwd: project,
        env: { ...process.env, HEARTH_URL: baseUrl, HEARTH_TOKEN: token },
        timeout: 30_000,
      });
      return stdout.trimEnd().split('\n');
    };
    /** What the first example prints, read from the API without the client. */
    const readingTour = async (): Promise<string[]> => {
      type Event = { id: string; title: string; start_date: string; end_date: string | null };
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
      expect(upcoming.records.length).toBeGreaterThan(5);
      expect(found.total_records).toBeGreaterThan(0);
      return [
        `${event.title}: ${event.start_date} to ${event.end_date}`,
        `${post.title ?? '(untitled)'} by ${post.author?.preferred_name ?? 'nobody'} in ${post.feed.label}`,
        ...upcoming.records.map((e) => `- ${e.start_date} ${e.title}`),
        `${found.total_records} posts about meetups; first: ${found.records[0]?.title ?? '-'}`,
        "404 not_found: Post 'nosuchpost01' was not found.",
      ];
    };

    it('npm install <clone>/packages/client builds it in the clone; the README compiles and its examples run', async () => {
      const clone = cleanClone('clone-linked');
      const project = userProject('linked-user');
      await run('npm', ['install', ...npmFlags, join(clone, 'packages/client')], {
        cwd: project,
        env: npmEnv,
        timeout: 180_000,
      });

      // A link to the clone's folder, built there with the client's own dependencies (and no lock file written).
      const installed = join(project, 'node_modules/@hearth/client');
      expect(lstatSync(installed).isSymbolicLink()).toBe(true);
      expect(readdirSync(join(clone, 'packages/client')).sort()).toEqual(
        [...readdirSync(clientDir).filter((entry) => !entry.endsWith('.tgz')), 'dist', 'node_modules']
          .filter((entry, i, all) => all.indexOf(entry) === i)
          .sort(),
      );
      expect(existsSync(join(clone, 'node_modules'))).toBe(false);
      expect(existsSync(join(clone, 'packages/client/node_modules/openapi-fetch/package.json'))).toBe(true);
      expect(readFileSync(join(installed, 'dist/index.d.ts'), 'utf8')).toContain('etagOf: (value: object) => string;');

      await Promise.all([compile(project, 'tsconfig.json'), compile(project, 'tsconfig.strict.json')]);

      const before = await get<{ records: { id: string }[] }>('/admin/v0/calendar_events?per_page=100');
      expect(await runExample(project, 'example-1.js', reader)).toEqual(await readingTour());
      expect(await runExample(project, 'example-2.js', writer)).toEqual([
        'moved to Room 2',
        '412 precondition_failed: still in Room 2',
        'deleted: true',
      ]);
      // The event the second example made is gone again.
      const after = await get<{ records: { id: string }[] }>('/admin/v0/calendar_events?per_page=100');
      expect(after.records.map((event) => event.id)).toEqual(before.records.map((event) => event.id));
    }, 240_000);

    it('the tarball npm pack makes in a clean clone installs as a copy and compiles under the strictest options', async () => {
      const clone = cleanClone('clone-packed');
      const folder = join(clone, 'packages/client');
      const { stdout } = await run('npm', ['pack', ...npmFlags], { cwd: folder, env: npmEnv, timeout: 180_000 });
      const tarball = join(folder, stdout.trim().split('\n').at(-1) ?? '');
      expect(basename(tarball)).toBe('hearth-client-0.2.0.tgz');

      const project = userProject('packed-user');
      await run('npm', ['install', ...npmFlags, tarball], { cwd: project, env: npmEnv, timeout: 180_000 });
      const installed = join(project, 'node_modules/@hearth/client');
      expect(lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json', 'src']);
      expect(existsSync(join(project, 'node_modules/openapi-fetch/package.json'))).toBe(true);

      await compile(project, 'tsconfig.json');
      expect(await runExample(project, 'example-1.js', reader)).toEqual(await readingTour());
    }, 240_000);
  },
);
