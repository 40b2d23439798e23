#!/usr/bin/env bash
# Installs npm packages when node_modules is missing or older than package-lock.json.
# The lock pins Node.js 24 (the `node` package), which every npm script then runs on.
set -euo pipefail
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
