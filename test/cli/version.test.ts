// The version `hearth --version` prints, the packages state and the CHANGELOG names agree; the Node versions the README
// names are those `engines` declares, what `npm install` installs runs on each without an EBADENGINE warning, and CI
// runs the suite on Node 22 as well.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

interface LockEntry {
  version?: string;
  dev?: boolean;
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

  it('declares the Node versions the README names (22, and 20 from 20.19; not 24), and installs nothing refusing them', () => {
    expect(read('README.md')).toContain(
      'Node.js 22, or 20 from 20.19 (CI runs the suite on both); not yet 24 ([why](docs/production.md#node-versions)).',
    );
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('^20.19.0 || ^22.12.0');
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
    expect(lock.packages['']?.engines).toEqual({ node: engines });
    // The oldest release of each line named (dev tools, vite and Redocly, need 20.19 or 22.12), and those not named:
    // on 24 better-sqlite3 12 aborts the process (docs/production.md).
    const lowest = ['20.19.0', '22.12.0'];
    expect(lowest.filter((node) => !semver.satisfies(node, engines))).toEqual([]);
    expect(
      ['18.20.8', '20.18.3', '21.7.3', '22.11.0', '23.11.1', '24.0.0'].filter((node) =>
        semver.satisfies(node, engines),
      ),
    ).toEqual([]);
    // The Node running this suite is one of them: CI runs it on the machine's Node, then on 22 (.ci/run, below).
    expect(semver.satisfies(process.version, engines)).toBe(true);
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
      if (range === undefined) return [];
      return lowest.filter((node) => !semver.satisfies(node, range)).map((node) => `${path} ${range} ${node}`);
    });
    expect(refusing).toEqual([]);
    // light-my-request (Fastify's inject) asks for cookie 2, which wants Node 22; cookie 1.1 has what it uses.
    expect((JSON.parse(read('package.json')) as { overrides: unknown }).overrides).toEqual({ cookie: '1.1.1' });
    expect(lock.packages['node_modules/light-my-request/node_modules/cookie']?.version).toBe('1.1.1');
    expect(lock.packages['node_modules/cookie']).toBeUndefined();
  });

  it('has CI run the whole suite on Node 22 too, with a Node from the npm registry and better-sqlite3 built for it', () => {
    expect(
      read('.ci/run')
        .split('\n')
        .filter((line) => line.includes('test-on-node')),
    ).toEqual(['scripts/test-on-node.sh 22']);
    const script = read('scripts/test-on-node.sh');
    expect(script).toContain('"node@$major"');
    expect(script).toContain('npm rebuild better-sqlite3');
    expect(script).toContain('npm test -- "$@"');
  });
});
