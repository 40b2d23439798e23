#!/usr/bin/env bash
# Installs npm packages when node_modules is missing or older than package-lock.json.
# The lock pins Node.js 24 (the `node` package), which every npm script then runs on.
# why `npm install` and not `npm ci`: the registry reachable here serves no metadata for other
# platforms' optional packages, so the lock cannot list them and `npm ci` refuses it as out of sync.
# `npm install` honours the lock as it is and leaves it unchanged. The lock keeps each package's download
# address (.npmrc), so a fresh install fetches the tarballs alone, not every package's registry document.
set -euo pipefail
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages" >&2
  npm install --no-audit --no-fund --loglevel=error
fi
