// The version `hearth --version` prints, the packages state and the CHANGELOG names agree; and what `npm install`
// installs runs on the Node versions the README names, without an EBADENGINE warning.
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

  it('installs nothing that refuses Node 20 or 22 (the README: "Node.js 20 or 22")', () => {
    expect(read('README.md')).toContain('Node.js 20 or 22.');
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockEntry> };
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
      if (range === undefined) return [];
      // The newest minor of each line: dev tools (vite, Redocly) need 20.19 or 22.12.
      return ['20.19.0', '22.12.0']
        .filter((node) => !semver.satisfies(node, range))
        .map((node) => `${path} ${range} ${node}`);
    });
    expect(refusing).toEqual([]);
    // light-my-request (Fastify's inject) asks for cookie 2, which wants Node 22; cookie 1.1 has what it uses.
    expect((JSON.parse(read('package.json')) as { overrides: unknown }).overrides).toEqual({ cookie: '1.1.1' });
    expect(lock.packages['node_modules/light-my-request/node_modules/cookie']?.version).toBe('1.1.1');
    expect(lock.packages['node_modules/cookie']).toBeUndefined();
  });
});
