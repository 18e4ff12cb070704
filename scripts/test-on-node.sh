#!/usr/bin/env bash
# Runs `npm test` on another Node.js major (22 or later), taken from the npm registry's `node` package, in this
# checkout: from Node 22 the SQLite driver is better-sqlite3 13, whose one Node-API binary serves every Node, so
# nothing is rebuilt and node_modules is left as it is. Where `npm install` ran on Node 20, which skips that optional
# driver (its engines refuse 20), it is installed beside the Node taken and found through NODE_PATH.
#   scripts/test-on-node.sh 22              the whole suite (lint, types, SQLite, then PostgreSQL), as CI runs it
#   scripts/test-on-node.sh 24 test/cli     arguments after the major go to vitest, as with `npm test`
set -euo pipefail
major="${1:?usage: scripts/test-on-node.sh MAJOR [vitest arguments...]}"
shift
(( major >= 22 )) || { echo "scripts/test-on-node.sh runs Node 22 or later; Node $major is the machine's own npm test" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-node$major.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The `node` package installs the official build of that major from the npm registry.
npm install --prefix "$work" --no-save --no-audit --no-fund --loglevel=error "node@$major"
export PATH="$work/node_modules/.bin:$PATH"
[[ "$(node --version)" == "v$major."* ]] || { echo "expected Node $major, got $(node --version)" >&2; exit 1; }

cd "$root"
if [[ ! -d node_modules/better-sqlite3-napi ]]; then
  driver="$(node -p "require('./package-lock.json').packages['node_modules/better-sqlite3-napi'].version")"
  # A prefix of its own: a second install into the Node's prefix would prune that Node as extraneous.
  npm install --prefix "$work/driver" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error \
    "better-sqlite3-napi@npm:better-sqlite3@$driver"
  export NODE_PATH="$work/driver/node_modules"
fi
[[ "$(node --version)" == "v$major."* ]] || { echo "expected Node $major, got $(node --version)" >&2; exit 1; }
echo "Testing on Node $(node --version)"
npm test -- "$@"
