// The version `hearth --version` prints, the packages state and the CHANGELOG names agree; the Node versions the README
// names are those `engines` declares, what `npm install` installs runs on each without an EBADENGINE warning, and CI
// runs the suite on Node 22 and 24 as well, each with its SQLite driver.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

describe('the version and the engines', () => {
  it("prints the CHANGELOG's newest version, which both packages and the lockfile state", async () => {
    const out: string[] = [];
    const code = await main(
      ['--version'],
      { out: (s) => out.push(s), err: () => {} },
      {},
      {
        progress: new PassThrough(),
        stdin: Readable.from(['']),
        stdout: new PassThrough(),
      },
    );
    expect([code, out]).toEqual([0, ['0.2.0']]);
    expect(/^## \[([^\]]+)\]/m.exec(read('CHANGELOG.md'))?.[1]).toBe('0.2.0');
    expect((JSON.parse(read('package.json')) as { version: string }).version).toBe('0.2.0');
    expect((JSON.parse(read('packages/client/package.json')) as { version: string }).version).toBe('0.2.0');
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, LockEntry> };
    expect([lock.version, lock.packages['']?.version, lock.packages['packages/client']?.version]).toEqual([
      '0.2.0',
      '0.2.0',
      '0.2.0',
    ]);
  });

  it('declares the Node versions the README names (24, 22, and 20 from 20.19), and installs nothing refusing them', () => {
    expect(read('README.md')).toContain(
      'Node.js 22 or 24, or 20 from 20.19 (CI runs the suite on each; [how](docs/production.md#node-versions)).',
    );
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('^20.19.0 || ^22.12.0 || ^24.0.0');
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
    expect(lock.packages['']?.engines).toEqual({ node: engines });
    // The oldest release of each line named (dev tools, vite and Redocly, need 20.19 or 22.12), and those not named.
    const lowest = ['20.19.0', '22.12.0', '24.0.0'];
    expect(lowest.filter((node) => !semver.satisfies(node, engines))).toEqual([]);
    expect(
      ['18.20.8', '20.18.3', '21.7.3', '22.11.0', '23.11.1', '25.0.0'].filter((node) =>
        semver.satisfies(node, engines),
      ),
    ).toEqual([]);
    // The Node running this suite is one of them: CI runs it on the machine's Node, then on 22 and 24 (.ci/run, below).
    expect(semver.satisfies(process.version, engines)).toBe(true);
    // npm skips an optional package whose engines refuse the running Node, silently; any other it installs with an
    // EBADENGINE warning. The only package refusing a Node named is the driver for Node 22 and later (better-sqlite3
    // 13, never loaded on 20: src/db/sqlite-driver.ts), optional for that reason, with its one dependency.
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
      if (range === undefined) return [];
      return lowest
        .filter((node) => !semver.satisfies(node, range))
        .map((node) => `${path} ${range} ${node}${entry.optional === true ? ' (optional)' : ''}`);
    });
    expect(refusing).toEqual(['node_modules/better-sqlite3-napi >=22 20.19.0 (optional)']);
    const manifest = JSON.parse(read('package.json')) as {
      dependencies: Record<string, string>;
      optionalDependencies: Record<string, string>;
    };
    expect([manifest.dependencies['better-sqlite3-napi'], manifest.optionalDependencies]).toEqual([
      undefined,
      { 'better-sqlite3': '^12.11.1', 'better-sqlite3-napi': 'npm:better-sqlite3@^13.2.0' },
    ]);
    // light-my-request (Fastify's inject) asks for cookie 2, which wants Node 22; cookie 1.1 has what it uses.
    expect((JSON.parse(read('package.json')) as { overrides: unknown }).overrides).toEqual({ cookie: '1.1.1' });
    const cookies = Object.entries(lock.packages).filter(([path]) => path.endsWith('node_modules/cookie'));
    expect(cookies.map(([, entry]) => entry.version)).toEqual(['1.1.1']);
  });

  it('has CI run the whole suite on Node 22 too, and its SQLite half on 24, with a Node from the npm registry', () => {
    expect(
      read('.ci/run')
        .split('\n')
        .filter((line) => line.includes('test-on-node')),
    ).toEqual(['scripts/test-on-node.sh 22', 'HEARTH_SKIP_POSTGRES=1 scripts/test-on-node.sh 24']);
    const script = read('scripts/test-on-node.sh');
    expect(script).toContain('"node@$major"');
    expect(script).toContain('npm test -- "$@"');
  });

  it('loads better-sqlite3 13 on Node 22 and later, 12 on Node 20', async () => {
    const { driverPackage } = await import('../../src/db/sqlite-driver.js');
    const major = Number(process.versions.node.split('.')[0]);
    expect(driverPackage).toBe(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3');
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
    expect([
      lock.packages['node_modules/better-sqlite3']?.version?.split('.')[0],
      lock.packages['node_modules/better-sqlite3-napi']?.version?.split('.')[0],
    ]).toEqual(['12', '13']);
    // Nothing else names a driver: a file importing better-sqlite3 itself would load 12 on Node 24.
    const naming = ['src', 'test', 'bench', 'scripts'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(ts|mjs|js)$/.test(file))
        .map((file) => `${folder}/${file}`)
        .filter((file) => /from 'better-sqlite3(-napi)?'|require\('better-sqlite3/.test(read(file))),
    );
    expect(naming).toEqual(['src/db/sqlite-driver.ts']);
  });
});
