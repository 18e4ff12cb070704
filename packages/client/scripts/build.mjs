#!/usr/bin/env node
// Builds dist/ (`npm run build`, and `prepare` when the folder is installed or packed); in a checkout where nothing
// was installed yet, it first installs the client's own dependencies into this folder, as npm does for a git one.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where `name` would be found from this folder, as Node looks for it: node_modules here, then in each folder above. */
function installed(name) {
  for (let dir = folder; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

// The workspace's `npm install` has them at the root; `npm install <this folder>` from a fresh clone has none, and
// npm installs no dependency of a linked folder itself. `--workspaces=false`: this folder alone, not the server's.
if (!installed('typescript') || !installed('openapi-fetch')) {
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const [command, ...prefix] = npm;
  execFileSync(
    command,
    [
      ...prefix,
      'install',
      '--workspaces=false',
      '--include=dev',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: folder, stdio: 'inherit' },
  );
}

const typescript = installed('typescript');
if (!typescript) throw new Error('typescript is still missing after installing the client’s dependencies');
rmSync(join(folder, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [join(typescript, 'bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: folder,
  stdio: 'inherit',
});
// tsc emits no declaration file for a `.d.ts` source: the generated schema types go beside the output as they are.
copyFileSync(join(folder, 'src/schema.d.ts'), join(folder, 'dist/schema.d.ts'));
