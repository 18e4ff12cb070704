#!/usr/bin/env bash
# Runs `npm test` on another Node.js major, taken from the npm registry's `node` package, in a copy of this checkout
# whose better-sqlite3 is built for that Node; the checkout and its node_modules are left as they are.
#   scripts/test-on-node.sh 22              the whole suite (lint, types, SQLite, then PostgreSQL), as CI runs it
#   scripts/test-on-node.sh 22 test/cli     arguments after the major go to vitest, as with `npm test`
set -euo pipefail
major="${1:?usage: scripts/test-on-node.sh MAJOR [vitest arguments...]}"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-node$major.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The `node` package installs the official build of that major (binary and C headers) from the npm registry.
npm install --prefix "$work/node" --no-save --no-audit --no-fund --loglevel=error "node@$major"
export PATH="$work/node/node_modules/.bin:$PATH"
[[ "$(node --version)" == "v$major."* ]] || { echo "expected Node $major, got $(node --version)" >&2; exit 1; }
headers="$(find "$work/node" -path '*/include/node/node.h' -print -quit)"
[[ -n "$headers" ]] || { echo "the node@$major package holds no C headers" >&2; exit 1; }

# The checkout without its history and stores; node_modules copied as files (it may be a link to another checkout's).
mkdir "$work/hearth"
tar -C "$root" --exclude=./.git --exclude=./node_modules --exclude=./data -cf - . | tar -C "$work/hearth" -xf -
cp -a "$(realpath "$root/node_modules")" "$work/hearth/node_modules"
cd "$work/hearth"

# better-sqlite3 is a native module built for one Node ABI: a prebuilt binary for this one when it can be downloaded,
# otherwise compiled against the headers that came with the node package (no download of them).
npm_config_nodedir="$(dirname "$(dirname "$(dirname "$headers")")")" npm rebuild better-sqlite3 --loglevel=error
echo "Testing on Node $(node --version)"
npm test -- "$@"
