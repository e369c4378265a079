#!/usr/bin/env bash
# Make Node (18.18 or later: ESLint 9's floor; CI has 20) and npm available, and install the page scripts' lint and test
# tools (package.json, pinned in package-lock.json: ESLint) into node_modules with
# `npm ci`, for tests/test_js.py (ESLint over src/standoff/judge/web/static, and
# `node --test web-tests/`). Installs Debian's nodejs and npm packages when node is
# missing; runs `npm ci` only when node_modules is missing or older than the lock
# file. Nothing is served from node_modules: the pages load no npm package.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 18 || (a === 18 && b >= 18) ? 0 : 1)'; then
  echo "error: the page scripts' tools need Node 18.18 or later (ESLint 9); found $(node --version)" >&2
  exit 1
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
